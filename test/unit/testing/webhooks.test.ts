import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleWorldOf } from '../../../src/testing/sandbox.js';
import { rawSandbox } from './helpers.js';

/** A receiver on 127.0.0.1 that answers the given statuses in turn and records each POST. */
async function receiver(statuses: number[]) {
  const received: { body: string; signature: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString(),
        signature: String(req.headers['service-signature']),
      });
      res.statusCode = statuses[received.length - 1] ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/hooks`, received };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

const hmac = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

async function setup() {
  const raw = rawSandbox();
  const { access_token } = await raw.tokenFor();
  const as = (method: string, path: string, body?: unknown) => raw.send(method, path, access_token, body);
  return { ...raw, as };
}

describe('POST /v2/webhooks', () => {
  it('stores {id, url, events, description, created_at} and never echoes a given secret', async () => {
    const { as } = await setup();
    const { status, body } = await as('POST', '/v2/webhooks', {
      url: 'http://127.0.0.1:9/hooks',
      events: ['call.incoming'],
      secret: 'CANARY_WEBHOOK_SECRET',
      description: 'front desk',
    });
    expect(status).toBe(200);
    expect(body.data.webhook).toEqual({
      id: expect.any(String),
      url: 'http://127.0.0.1:9/hooks',
      events: ['call.incoming'],
      description: 'front desk',
      created_at: '2025-01-15T09:00:00.000Z',
    });
    expect(JSON.stringify(body)).not.toContain('CANARY_WEBHOOK_SECRET');
  });

  it('generates a secret when none is given and shows it once', async () => {
    const { as } = await setup();
    const { body } = await as('POST', '/v2/webhooks', {
      url: 'http://localhost:9/h',
      events: ['call.ended'],
    });
    expect(body.data.webhook.secret).toMatch(/^whsec_[0-9a-f]{32}$/);
    expect(body.data.webhook.description).toBeNull();
  });

  it.each<[Record<string, unknown>]>([
    [{ events: ['call.incoming'] }],
    [{ url: 'https://example.com/hooks', events: ['call.incoming'] }],
    [{ url: 'http://127.0.0.1:9/h', events: [] }],
    [{ url: 'http://127.0.0.1:9/h' }],
    [{ url: 'http://127.0.0.1:9/h', events: 'call.ended' }],
    [{ url: 'http://127.0.0.1:9/h', events: ['call.ended', ''] }],
    [{ url: 'http://127.0.0.1:9/h', events: ['  '] }],
    [{ url: 'http://127.0.0.1:9/h', events: [42] }],
    [{ url: 'http://127.0.0.1:9/h', events: [null] }],
    [{ url: 'http://127.0.0.1:9/h', events: [['call.ended']] }],
    [{ url: 7, events: ['call.ended'] }],
    [{ url: 'not a url', events: ['call.ended'] }],
    [{ url: 'http://127.0.0.1:9/h', events: ['call.ended'], secret: 7 }],
  ])('refuses %j with 400 invalid_parameter', async (body) => {
    const { as } = await setup();
    const response = await as('POST', '/v2/webhooks', body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_parameter');
  });

  it('accepts event types beyond the spec’s main list (it "may not be exhaustive"), e.g. system.alert', async () => {
    const { sandbox, as } = await setup();
    const events = ['system.alert', 'call.incoming', 'contact.deleted'];
    const { status, body } = await as('POST', '/v2/webhooks', { url: 'http://127.0.0.1:9/h', events });
    expect(status).toBe(200);
    expect(body.data.webhook.events).toEqual(events);
    expect(sandbox.webhooks[0]?.events).toEqual(events);
  });
});

describe('webhook delivery', () => {
  it('POSTs call.incoming signed with the webhook secret over real HTTP', async () => {
    const { sandbox, as } = await setup();
    const hook = await receiver([200]);
    await as('POST', '/v2/webhooks', { url: hook.url, events: ['call.incoming'], secret: 's3cret' });
    const call = sandbox.simulateIncomingCall({
      from: '+15557654321',
      userId: 'usr_1',
      customData: { vip: true },
    });
    await sandbox.idle();
    expect(hook.received).toHaveLength(1);
    const [first] = hook.received;
    const event = JSON.parse(first?.body ?? '');
    expect(event).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      type: 'call.incoming',
      created_at: '2025-01-15T09:00:00.000Z',
      data: {
        call: {
          id: call.id,
          direction: 'inbound',
          status: 'ringing',
          from: { number: '+15557654321', name: '' },
          to: { user_id: 'usr_1' },
          queue: { id: expect.any(String), name: expect.any(String) },
          custom_data: { vip: true },
        },
      },
    });
    const unix = Date.UTC(2025, 0, 15, 9) / 1000;
    expect(first?.signature).toBe(`t=${unix},v1=${hmac('s3cret', first?.body ?? '')}`);
  });

  it('sends only subscribed types: answered, missed, ended', async () => {
    const { sandbox, as } = await setup();
    const hook = await receiver([]);
    await as('POST', '/v2/webhooks', {
      url: hook.url,
      events: ['call.answered', 'call.missed', 'call.ended'],
    });
    await as('POST', '/v2/calls', { to: '+15551234567' });
    sandbox.missCall(sandbox.simulateIncomingCall({ from: '+15557654321' }).id);
    await sandbox.advance(40_000);
    expect(hook.received.map((r) => JSON.parse(r.body).type)).toEqual([
      'call.missed',
      'call.answered',
      'call.ended',
    ]);
  });

  it('retries a non-200 answer with exponential backoff on the sandbox clock, keeping the event id', async () => {
    const { sandbox, as } = await setup();
    const hook = await receiver([500, 503, 200]);
    await as('POST', '/v2/webhooks', { url: hook.url, events: ['call.incoming'], secret: 's' });
    sandbox.simulateIncomingCall({ from: '+15557654321' });
    await sandbox.idle();
    expect(hook.received).toHaveLength(1);
    await sandbox.advance(9_999);
    expect(hook.received).toHaveLength(1);
    await sandbox.advance(1);
    expect(hook.received).toHaveLength(2);
    await sandbox.advance(20_000);
    expect(hook.received).toHaveLength(3);
    await sandbox.advance(600_000);
    expect(hook.received).toHaveLength(3);
    const ids = hook.received.map((r) => JSON.parse(r.body).id);
    expect(new Set(ids).size).toBe(1);
    expect(sandbox.deliveries.map((d) => [d.attempt, d.status])).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ]);
    // Each attempt is signed at its own time.
    expect(hook.received[2]?.signature).toMatch(new RegExp(`^t=${Date.UTC(2025, 0, 15, 9) / 1000 + 30},`));
  });

  it('gives up after 5 re-deliveries', async () => {
    const { sandbox, as } = await setup();
    const hook = await receiver(Array(10).fill(500));
    await as('POST', '/v2/webhooks', { url: hook.url, events: ['call.incoming'] });
    sandbox.simulateIncomingCall({ from: '+15557654321' });
    await sandbox.advance(3_600_000);
    expect(hook.received).toHaveLength(6);
  });

  it('notifies callback_url of each status change, signed with the callback secret', async () => {
    const { sandbox, as } = await setup();
    const hook = await receiver([]);
    await as('POST', '/v2/calls', { to: '+15551234567', callback_url: hook.url });
    await sandbox.advance(40_000);
    const events = hook.received.map((r) => JSON.parse(r.body));
    expect(events.map((e) => [e.type, e.data.call.status])).toEqual([
      ['call.status_changed', 'ringing'],
      ['call.status_changed', 'answered'],
      ['call.status_changed', 'completed'],
    ]);
    expect(hook.received[0]?.signature).toContain(
      `v1=${hmac('sandbox_callback_secret', hook.received[0]?.body ?? '')}`,
    );
  });

  it('emits call.transferred when a transfer finishes', async () => {
    const { sandbox, as } = await setup();
    const hook = await receiver([]);
    await as('POST', '/v2/webhooks', { url: hook.url, events: ['call.transferred'] });
    const id = (await as('POST', '/v2/calls', { to: '+15551234567' })).body.data.call.id;
    await sandbox.advance(5_000);
    await as('POST', `/v2/calls/${id}/transfer`, { to: '+15557654321' });
    await sandbox.advance(2_000);
    expect(hook.received.map((r) => JSON.parse(r.body).type)).toEqual(['call.transferred']);
  });
});

describe('re-delivery schedule and event ids (no socket: deliveryFetch)', () => {
  /** A deliveryFetch that answers `answer()` and records each call. */
  function recording(answer: () => Promise<Response>) {
    const posts: { url: string; body: string }[] = [];
    const deliveryFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      posts.push({ url: String(input), body: String(init?.body) });
      return answer();
    };
    return { posts, deliveryFetch };
  }

  async function setupWith(deliveryFetch: typeof fetch) {
    const raw = rawSandbox({ deliveryFetch });
    const { access_token } = await raw.tokenFor();
    const as = (method: string, path: string, body?: unknown) => raw.send(method, path, access_token, body);
    return { ...raw, as };
  }

  it('re-delivers after 10, 20, 40, 80 and 160 s, each attempt signed at its own time', async () => {
    const { deliveryFetch } = recording(async () => new Response(null, { status: 500 }));
    const { sandbox, as } = await setupWith(deliveryFetch);
    await as('POST', '/v2/webhooks', { url: 'http://127.0.0.1:9/h', events: ['call.incoming'], secret: 's' });
    sandbox.simulateIncomingCall({ from: '+15557654321' });
    await sandbox.advance(3_600_000);
    const start = Date.UTC(2025, 0, 15, 9);
    expect(sandbox.deliveries.map((d) => (d.at - start) / 1000)).toEqual([0, 10, 30, 70, 150, 310]);
    expect(sandbox.deliveries.map((d) => d.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const delivery of sandbox.deliveries) {
      expect(delivery.signature).toBe(`t=${delivery.at / 1000},v1=${hmac('s', delivery.body)}`);
    }
  });

  it('no answer at all (status null) and a 2xx other than 200 are both re-delivered', async () => {
    let attempts = 0;
    const { posts, deliveryFetch } = recording(async () => {
      attempts++;
      if (attempts === 1) throw new TypeError('fetch failed');
      return new Response(null, { status: attempts === 2 ? 204 : 200 });
    });
    const { sandbox, as } = await setupWith(deliveryFetch);
    await as('POST', '/v2/webhooks', { url: 'http://127.0.0.1:9/h', events: ['call.incoming'] });
    sandbox.simulateIncomingCall({ from: '+15557654321' });
    await sandbox.advance(600_000);
    expect(sandbox.deliveries.map((d) => d.status)).toEqual([null, 204, 200]);
    expect(posts).toHaveLength(3);
  });

  it('call.incoming carries from.contact_id and to.user_id as null when unknown', async () => {
    const { sandbox, as } = await setup();
    await as('POST', '/v2/webhooks', { url: 'http://127.0.0.1:9/h', events: ['call.incoming'] });
    const unknown = sandbox.simulateIncomingCall({ from: '+15557654321' });
    const known = sandbox.simulateIncomingCall({ from: '+15557654322', userId: 'usr_1', contactId: 'ct_1' });
    await sandbox.idle();
    const calls = sandbox.deliveries.map((d) => JSON.parse(d.body).data.call);
    const first = calls.find((call) => call.id === unknown.id);
    expect(first.from).toEqual({ number: '+15557654321', name: '', contact_id: null });
    expect(first.to).toMatchObject({ user_id: null });
    const second = calls.find((call) => call.id === known.id);
    expect(second).toMatchObject({ from: { contact_id: 'ct_1' }, to: { user_id: 'usr_1' } });
  });

  it('one event, one id: the same event carries the same id to every webhook; re-deliveries keep it', async () => {
    let failFirst = true;
    const { deliveryFetch } = recording(async () => {
      const status = failFirst ? 500 : 200;
      failFirst = false;
      return new Response(null, { status });
    });
    const { sandbox, as } = await setupWith(deliveryFetch);
    await as('POST', '/v2/webhooks', {
      url: 'http://127.0.0.1:9/a',
      events: ['call.incoming', 'call.missed'],
    });
    await as('POST', '/v2/webhooks', { url: 'http://127.0.0.1:9/b', events: ['call.incoming'] });
    sandbox.missCall(sandbox.simulateIncomingCall({ from: '+15557654321' }).id);
    await sandbox.advance(10_000);
    // a: incoming (refused, then re-delivered) and missed; b: incoming.
    expect(sandbox.deliveries).toHaveLength(4);
    const firsts = sandbox.deliveries.filter((d) => d.attempt === 1);
    const incoming = firsts.filter((d) => d.event.type === 'call.incoming');
    expect(incoming.map((d) => d.url).sort()).toEqual(['http://127.0.0.1:9/a', 'http://127.0.0.1:9/b']);
    // call.incoming went to a and b under one id; call.missed is another event with its own.
    expect(incoming[0]?.event.id).toBe(incoming[1]?.event.id);
    expect(new Set(firsts.map((d) => d.event.id)).size).toBe(2);
    const retry = sandbox.deliveries.find((d) => d.attempt === 2);
    const original = sandbox.deliveries.find(
      (d) => d.attempt === 1 && d.url === retry?.url && d.event.type === retry?.event.type,
    );
    expect(retry?.event.id).toBe(original?.event.id);
    expect(retry?.body).toBe(original?.body);
  });

  it('two webhooks at one URL (a secret being rotated): each refused delivery is re-delivered, on time or now', async () => {
    const { deliveryFetch } = recording(async () => new Response(null, { status: 500 }));
    const { sandbox, as } = await setupWith(deliveryFetch);
    for (const secret of ['old', 'new'])
      await as('POST', '/v2/webhooks', { url: 'http://127.0.0.1:9/h', events: ['call.incoming'], secret });
    const { id: callId } = sandbox.simulateIncomingCall({ from: '+15557654321' });
    const signedWith = (attempt: number) =>
      sandbox.deliveries
        .filter((d) => d.attempt === attempt)
        .map((d) => ['old', 'new'].find((secret) => d.signature.endsWith(hmac(secret, d.body))))
        .sort();
    await sandbox.advance(10_000);
    expect(signedWith(1)).toEqual(['new', 'old']);
    expect(signedWith(2)).toEqual(['new', 'old']);
    // Both wait for a third attempt under one event id and URL: re-delivering now sends both.
    const { event } = sandbox.deliveries[0]!;
    expect(JSON.parse(sandbox.deliveries[0]!.body).data.call.id).toBe(callId);
    expect(consoleWorldOf(sandbox).deliverer.redeliverNow(event.id, 'http://127.0.0.1:9/h')).toBe(true);
    await sandbox.idle();
    expect(signedWith(3)).toEqual(['new', 'old']);
  });
});

describe('more events', () => {
  it('DELETE emits call.ended (status ended); voicemail emits call.missed and voicemail.new', async () => {
    const { sandbox, as } = await setup();
    const hook = await receiver([]);
    await as('POST', '/v2/webhooks', {
      url: hook.url,
      events: ['call.missed', 'call.ended', 'voicemail.new'],
    });
    const id = (await as('POST', '/v2/calls', { to: '+15551234567' })).body.data.call.id;
    await sandbox.advance(2_000);
    await as('DELETE', `/v2/calls/${id}`);
    sandbox.voicemailCall(sandbox.simulateIncomingCall({ from: '+15557654321' }).id);
    await sandbox.idle();
    const events = hook.received.map((r) => JSON.parse(r.body));
    // The two voicemail events are posted at once: their arrival order is not fixed.
    expect(events.map((e) => [e.type, e.data.call.status]).sort()).toEqual([
      ['call.ended', 'ended'],
      ['call.missed', 'voicemail'],
      ['voicemail.new', 'voicemail'],
    ]);
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
  });

  it('voicemail.new goes only to webhooks subscribed to it, with data.call in the detail form (links null when unknown)', async () => {
    const { sandbox, as } = await setup();
    const voicemail = await receiver([]);
    const missed = await receiver([]);
    await as('POST', '/v2/webhooks', { url: voicemail.url, events: ['voicemail.new'], secret: 'vm' });
    await as('POST', '/v2/webhooks', { url: missed.url, events: ['call.missed'] });
    sandbox.missCall(sandbox.simulateIncomingCall({ from: '+15557654321' }).id);
    const left = sandbox.simulateIncomingCall({ from: '+15557654322', userId: 'usr_2' });
    const detail = sandbox.voicemailCall(left.id);
    await sandbox.idle();
    expect(missed.received.map((r) => JSON.parse(r.body).type)).toEqual(['call.missed', 'call.missed']);
    expect(voicemail.received).toHaveLength(1);
    const [delivery] = voicemail.received;
    expect(JSON.parse(delivery?.body ?? '')).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'voicemail.new',
      created_at: '2025-01-15T09:00:00.000Z',
      // The detail form, with the caller's unknown contact_id as null (events always carry it).
      data: { call: { ...detail, from: { ...detail.from, contact_id: null } } },
    });
    expect(detail).toMatchObject({ id: left.id, status: 'voicemail', duration: 0, to: { user_id: 'usr_2' } });
    expect(delivery?.signature).toContain(`v1=${hmac('vm', delivery?.body ?? '')}`);
  });
});
