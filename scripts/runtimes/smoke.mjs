// The runtime matrix's one smoke script, plain ESM so Node, Bun, Deno and a browser all run it
// as is, against a fresh sandbox (telephony-sdk/testing) on 127.0.0.1. Each check passes, fails,
// or is skipped with the reason (v1 users in a browser: the API key is a secret).

/**
 * @param {{ sdk: Record<string, any>, webhooks: Record<string, any>, baseUrl: string,
 *   credentials: { clientId: string, clientSecret: string, apiKey: string, accessToken: string },
 *   browser: boolean }} config
 * @returns {Promise<{ name: string, status: 'pass' | 'fail' | 'skip', detail: string }[]>}
 */
export async function runSmoke({ sdk, webhooks, baseUrl, credentials, browser }) {
  const results = [];
  const check = async (name, body) => {
    try {
      results.push({ name, status: 'pass', detail: (await body()) ?? '' });
    } catch (error) {
      results.push({ name, status: 'fail', detail: `${error?.name}: ${error?.message}` });
    }
  };
  const assert = (ok, message) => {
    if (!ok) throw new Error(message);
  };
  const Client = sdk.TelephonyClient;
  const options = { baseUrl, baseUrlV1: baseUrl, maxRetries: 0 };

  await check('import every entry', () => {
    assert(typeof sdk.TelephonyError === 'function', 'telephony-sdk exports no TelephonyError');
    assert(webhooks !== undefined, 'telephony-sdk/webhooks did not load');
    return `${Object.keys(sdk).length} + ${Object.keys(webhooks).length} exports`;
  });

  await check('webhook sign + verify', async () => {
    const body = JSON.stringify({
      id: 'evt_1',
      type: 'call.incoming',
      created_at: '2026-11-22T12:00:00Z',
      data: {},
    });
    const header = await webhooks.signWebhook(body, 'whsec_smoke');
    const event = await webhooks.verifyWebhook(body, header, 'whsec_smoke');
    assert(event.type === 'call.incoming', `event type ${event.type}`);
    const tampered = await webhooks.verifyWebhook(`${body} `, header, 'whsec_smoke').then(
      () => null,
      (error) => error,
    );
    assert(tampered instanceof sdk.TelephonyError, 'a changed byte did not throw a TelephonyError');
    assert(tampered.reason === 'signature_mismatch', `reason ${tampered.reason}`);
    // Which crypto the SDK reaches: node:crypto through process.getBuiltinModule, else Web Crypto.
    const nodeCrypto = typeof globalThis.process?.getBuiltinModule === 'function';
    return `${nodeCrypto ? 'node:crypto' : 'Web Crypto'}: valid accepted, one changed byte refused (signature_mismatch)`;
  });

  if (browser) {
    await check('clientSecret refused in a browser without dangerouslyAllowBrowser', () => {
      let refused = null;
      try {
        new Client({ ...options, clientId: credentials.clientId, clientSecret: credentials.clientSecret });
      } catch (error) {
        refused = error;
      }
      assert(refused instanceof sdk.TelephonyError, 'constructing with clientSecret did not throw');
      assert(
        !String(refused.message).includes(credentials.clientSecret),
        'the error message contains the secret',
      );
      new Client({
        ...options,
        clientId: credentials.clientId,
        clientSecret: credentials.clientSecret,
        dangerouslyAllowBrowser: true,
      });
      return `refused: "${refused.message.slice(0, 80)}…"; allowed with dangerouslyAllowBrowser`;
    });
  }

  const v2 = browser
    ? new Client({ ...options, accessToken: credentials.accessToken })
    : new Client({
        ...options,
        clientId: credentials.clientId,
        clientSecret: credentials.clientSecret,
        apiKey: credentials.apiKey,
      });

  // The sandbox starts empty: three calls are placed first, so listing and paging have data.
  const CALLS = 3;
  await check(
    browser
      ? 'create calls and list them with accessToken across CORS'
      : 'token (client credentials), create and list calls',
    async () => {
      let tokens = 0;
      v2.on('token', () => tokens++);
      const created = [];
      for (let i = 0; i < CALLS; i++) created.push(await v2.calls.create({ to: `+1555000111${i}` }));
      assert(
        created.every((call) => call.status === 'initiating'),
        'a created call is not initiating',
      );
      const page = await v2.calls.listRecent({ limit: 2 });
      assert(page.items.length === 2, `${page.items.length} items`);
      assert(browser ? tokens === 0 : tokens === 1, `${tokens} token events`);
      return `${CALLS} created, ${page.items.length} listed, ${tokens} token request(s)`;
    },
  );

  await check('pagination (for await over every page)', async () => {
    const first = await v2.calls.listRecent({ limit: 2 });
    assert(first.hasNextPage(), 'the first of two pages has no next page');
    let n = 0;
    for await (const _call of v2.calls.listRecent({ limit: 2 })) n++;
    assert(n === CALLS && first.pagination.total === CALLS, `${n} items, total ${first.pagination.total}`);
    return `${n} calls in ${Math.ceil(n / 2)} pages`;
  });

  await check('calls: get, transfer, end', async () => {
    const { items } = await v2.calls.listRecent({ limit: 1 });
    const detail = await v2.calls.get(items[0].id);
    assert(detail.id === items[0].id, 'get returned another call');
    const transferred = await v2.calls.transfer(detail.id, { to: '+15550002222' });
    assert(transferred.status === 'transferring', `transfer ${transferred.status}`);
    const ended = await v2.calls.end(detail.id);
    assert(ended.status === 'ended' || ended.status === 'completed', `end ${ended.status}`);
    return `get ${detail.status}, transfer ${transferred.status}, end ${ended.status}`;
  });

  await check('stats.calls and webhooks.create', async () => {
    const stats = await v2.stats.calls({ from: '2025-01-01', to: '2025-12-31' });
    assert(typeof stats.total_calls === 'number', 'no total_calls');
    await v2.webhooks.create({ url: 'http://127.0.0.1:9/hook', events: ['call.incoming'] });
    return `total_calls ${stats.total_calls}`;
  });

  const usersCheck = 'users (v1, API key): create, list, get, update, delete';
  if (browser)
    results.push({
      name: usersCheck,
      status: 'skip',
      detail: 'the API key is a secret: not used in a browser',
    });
  else
    await check(usersCheck, async () => {
      let n = 0;
      const created = await v2.users.create({ name: 'Smoke Test', email: 'smoke@example.com' });
      for await (const _user of v2.users.list({ per_page: 10 })) n++;
      assert(n === 1, `${n} users listed`);
      const got = await v2.users.get(created.id);
      await v2.users.update(got.id, { department: 'QA' });
      const deleted = await v2.users.delete(got.id);
      assert(deleted.deleted === true, 'not deleted');
      return `${n} listed, ${created.id} created and deleted`;
    });

  await check('errors: NotFoundError, ValidationError before sending', async () => {
    const missing = await v2.calls.get('call_does_not_exist').then(
      () => null,
      (e) => e,
    );
    assert(missing instanceof sdk.NotFoundError, `got ${missing?.name}`);
    assert(missing.status === 404 && missing.apiVersion === 'v2', `status ${missing.status}`);
    const invalid = await v2.calls.listRecent({ limit: 1000 }).then(
      () => null,
      (e) => e,
    );
    assert(invalid instanceof sdk.ValidationError, `got ${invalid?.name}`);
    return `404 ${missing.code}; limit 1000 → ${invalid.issues.map((i) => i.path).join(',')}`;
  });

  return results;
}
