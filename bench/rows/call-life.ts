/**
 * Issue 29's rows, over the sandbox of ./dist (`telephony-sdk/testing`) on 127.0.0.1 with a manual
 * clock, so nothing sleeps:
 * - a live list: 1 000 calls walked 100 per page while a call arrives per 2 calls yielded — the SDK's
 *   `for await` beside a plain `offset += received` loop (what the SDK did before);
 * - lost answers: keyed `calls.create`s whose answers the sandbox drops after placing the call (or
 *   before): calls placed per create, and the look-up's requests per create;
 * - `calls.waitFor`: GET requests per followed call (placed, completed 35 s later on the sandbox),
 *   polling, and with a `WebhookReceiver` on the call's `callback_url` whose events wake it.
 */
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, goal, type RowResult } from '../report.js';

const distDir = process.env.TELEPHONY_SDK_DIST ?? fileURLToPath(new URL('../../dist', import.meta.url));

interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
interface Call {
  id: string;
  status: string;
}
interface Client {
  users: unknown;
  on(name: 'request', listener: (event: { method: string; url: string }) => void): unknown;
  calls: {
    listRecent(params: {
      limit: number;
      offset?: number;
    }): AsyncIterable<Call> & PromiseLike<{ items: Call[] }>;
    create(
      params: { to: string; callback_url?: string },
      options?: { idempotencyKey?: string },
    ): Promise<Call>;
    waitFor(id: string, until: readonly string[], options?: { receiver?: unknown }): Promise<Call>;
  };
}
interface Sandbox {
  listen(): Promise<{ url: string; close(): Promise<void> }>;
  advance(ms: number): Promise<void>;
  simulateIncomingCall(init: { from: string }): Call;
  injectFault(init: { method: string; path: string; kind: 'drop_after' | 'drop_before'; times: number }): {
    hits: number;
  };
  clock: { now(): number };
  clientClock: Clock;
  credentials: Record<string, string>;
  close(): void;
}
interface Life {
  TelephonyClient: new (options: Record<string, unknown>) => Client;
  FINAL_CALL_STATUSES: readonly string[];
  createSandbox(options?: Record<string, unknown>): Sandbox;
  WebhookReceiver: new (options: {
    secret: string;
    tolerance: number;
  }) => { nodeHandler: Parameters<typeof createServer>[1] };
}

async function loadLife(): Promise<Life | undefined> {
  try {
    const sdk = (await import(join(distDir, 'index.js'))) as Record<string, unknown>;
    const testing = (await import(join(distDir, 'testing.cjs'))) as Record<string, unknown>;
    const webhooks = (await import(join(distDir, 'webhooks.js'))) as Record<string, unknown>;
    if (typeof sdk.FINAL_CALL_STATUSES !== 'object') return undefined;
    const { createSandbox } = (testing.default ?? testing) as Pick<Life, 'createSandbox'>;
    return {
      ...(sdk as unknown as Life),
      createSandbox,
      WebhookReceiver: webhooks.WebhookReceiver as Life['WebhookReceiver'],
    };
  } catch {
    return undefined;
  }
}

async function served(life: Life, options: Record<string, unknown> = {}) {
  const sandbox = life.createSandbox(options);
  const server = await sandbox.listen();
  const client = (clock: Clock = sandbox.clientClock) =>
    new life.TelephonyClient({ baseUrl: server.url, ...sandbox.credentials, clock });
  const close = async () => {
    await server.close();
    sandbox.close();
  };
  return { sandbox, server, client, close };
}

const CALLS = 1000;

async function liveListRow(life: Life): Promise<RowResult> {
  const walk = async (sdkWalk: boolean) => {
    const { sandbox, server, client, close } = await served(life);
    try {
      const arrive = async () => {
        await sandbox.advance(1);
        sandbox.simulateIncomingCall({ from: '+14155550199' });
      };
      for (let i = 0; i < CALLS; i++) await arrive();
      const existing = new Set<string>();
      for (let offset = 0; offset < CALLS; offset += 100) {
        for (const call of (await client().calls.listRecent({ limit: 100, offset })).items)
          existing.add(call.id);
      }
      const yielded: string[] = [];
      let requests = 0;
      const sdk = client();
      sdk.on('request', () => requests++);
      const onItem = async (id: string) => {
        yielded.push(id);
        if (yielded.length % 2 === 0) await arrive();
      };
      if (sdkWalk) {
        for await (const call of sdk.calls.listRecent({ limit: 100 })) await onItem(call.id);
      } else {
        // What a walk did before: next offset = offset + items received, until has_more is false.
        for (let offset = 0, more = true; more; ) {
          requests++;
          const answer = (await (
            await fetch(`${server.url}/v2/calls/recent?limit=100&offset=${offset}`, {
              headers: { authorization: `Bearer ${await token(server.url, sandbox.credentials)}` },
            })
          ).json()) as { data: { calls: Call[]; pagination: { has_more: boolean } } };
          for (const call of answer.data.calls) await onItem(call.id);
          offset += answer.data.calls.length;
          more = answer.data.pagination.has_more && answer.data.calls.length > 0;
        }
      }
      const distinct = new Set(yielded);
      return {
        yielded: yielded.length,
        duplicates: yielded.length - distinct.size,
        missing: [...existing].filter((id) => !distinct.has(id)).length,
        requests,
      };
    } finally {
      await close();
    }
  };
  const sdk = await walk(true);
  const naive = await walk(false);
  return {
    row: `29a. live list: ${fmt(CALLS)} calls, one arrival per 2 calls yielded`,
    command: 'npm run bench -- call-life',
    table: [
      ['walk', 'yielded', 'duplicates', 'missing', 'list requests'],
      [
        'telephony-sdk for await (limit 100)',
        ...[sdk.yielded, sdk.duplicates, sdk.missing, sdk.requests].map(String),
      ],
      [
        'offset += received (limit 100)',
        ...[naive.yielded, naive.duplicates, naive.missing, naive.requests].map(String),
      ],
    ],
    goals: [
      goal(
        'duplicates 0, missing 0',
        sdk.duplicates === 0 && sdk.missing === 0,
        `${sdk.duplicates} duplicates, ${sdk.missing} missing`,
      ),
    ],
    notes: ["arrivals are the sandbox's simulateIncomingCall, 1 ms of sandbox time apart"],
  };
}

async function token(url: string, credentials: Record<string, string>): Promise<string> {
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: credentials.clientId ?? '',
    client_secret: credentials.clientSecret ?? '',
  });
  const answer = (await (await fetch(`${url}/v2/oauth/token`, { method: 'POST', body: form })).json()) as {
    access_token: string;
  };
  return answer.access_token;
}

const FOLLOWED = 20;

async function waitForRow(life: Life): Promise<RowResult> {
  const follow = async (withReceiver: boolean) => {
    const secret = 'bench_callbacks';
    const { sandbox, client, close } = await served(life, {
      clock: { start: Date.now() },
      callbackSecret: secret,
    });
    // Sandbox time runs ahead of the wall clock by 36 s per call followed: a tolerance that covers them all.
    const receiver = new life.WebhookReceiver({ secret, tolerance: 3600 });
    const hooks = createServer(receiver.nodeHandler);
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    const address = hooks.address();
    const callbackUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
    try {
      // With a receiver the wait's own sleeps end only when woken (sandbox time moves in 1 s steps);
      // polling, each wait moves sandbox time by its length.
      const held: Clock = {
        now: () => sandbox.clock.now(),
        sleep: (_ms, signal) =>
          new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
      };
      const sdk = client(withReceiver ? held : sandbox.clientClock);
      let gets = 0;
      sdk.on('request', ({ method, url }) => {
        if (method === 'GET' && /\/v2\/calls\/call_\d+$/.test(url)) gets++;
      });
      let statuses = 0;
      for (let i = 0; i < FOLLOWED; i++) {
        const call = await sdk.calls.create({ to: '+14155550123', callback_url: callbackUrl });
        const waiting = sdk.calls.waitFor(
          call.id,
          life.FINAL_CALL_STATUSES,
          withReceiver ? { receiver } : {},
        );
        // The call completes 35 s after placing: its events arrive while sandbox time moves to there.
        for (let second = 0; withReceiver && second < 36; second++) await sandbox.advance(1000);
        if ((await waiting).status === 'completed') statuses++;
      }
      return { gets, statuses };
    } finally {
      await new Promise((resolve) => hooks.close(resolve));
      await close();
    }
  };
  const polling = await follow(false);
  const woken = await follow(true);
  return {
    row: `29c. calls.waitFor: GET requests per followed call (${FOLLOWED} calls, completed 35 s after placing)`,
    command: 'npm run bench -- call-life',
    table: [
      ['follow', 'GETs per call', 'reached completed'],
      ['polling (1 s doubling to 10 s)', fmt(polling.gets / FOLLOWED, 1), `${polling.statuses}/${FOLLOWED}`],
      ['woken by a receiver on callback_url', fmt(woken.gets / FOLLOWED, 1), `${woken.statuses}/${FOLLOWED}`],
    ],
    goals: [],
    notes: ['the sandbox posts call.status_changed for ringing, answered and completed'],
  };
}

const CREATES = 200;

async function lostAnswersRow(life: Life): Promise<RowResult> {
  const run = async (kind: 'drop_after' | 'drop_before') => {
    const { sandbox, client, close } = await served(life);
    try {
      const sdk = client();
      let lookUps = 0;
      sdk.on('request', ({ method }) => {
        if (method === 'GET') lookUps++;
      });
      const counted = async () => {
        const page = (await client().calls.listRecent({ limit: 1 })) as unknown as {
          pagination: { total: number };
        };
        return page.pagination.total;
      };
      let resolved = 0;
      let rejectedUnknown = 0;
      let placedFirst = 0;
      let placedAfterRetry = 0;
      for (let i = 0; i < CREATES; i++) {
        const key = `${kind}-${i}`;
        const to = `+1415555${String(i).padStart(4, '0')}`;
        const before = await counted();
        sandbox.injectFault({ method: 'POST', path: '/v2/calls', kind, times: 1 });
        const first = await sdk.calls.create({ to }, { idempotencyKey: key }).then(
          () => 'resolved',
          (error: { outcome?: string }) => error.outcome,
        );
        if (first === 'resolved') resolved++;
        if (first === 'unknown') rejectedUnknown++;
        placedFirst += (await counted()) - before;
        if (first !== 'resolved') {
          await sdk.calls.create({ to }, { idempotencyKey: key });
          placedAfterRetry += (await counted()) - before;
        }
      }
      return { resolved, rejectedUnknown, placedFirst, placedAfterRetry, lookUps };
    } finally {
      await close();
    }
  };
  const after = await run('drop_after');
  const before = await run('drop_before');
  const perCreate = (n: number) => fmt(n / CREATES, 2);
  return {
    row: `29b. lost answers: ${CREATES} keyed calls.create, the answer dropped after placing / before`,
    command: 'npm run bench -- call-life',
    table: [
      [
        'fault',
        'resolved',
        'rejected unknown',
        'placed per create',
        'after the retry with the key',
        'look-up GETs per create',
      ],
      [
        'drop_after (placed, answer lost)',
        String(after.resolved),
        String(after.rejectedUnknown),
        perCreate(after.placedFirst),
        '—',
        perCreate(after.lookUps),
      ],
      [
        'drop_before (not placed)',
        String(before.resolved),
        String(before.rejectedUnknown),
        perCreate(before.placedFirst),
        perCreate(before.placedAfterRetry),
        perCreate(before.lookUps),
      ],
    ],
    goals: [
      goal(
        'drop_after: exactly 1 call placed per create',
        after.placedFirst === CREATES && after.resolved === CREATES,
        `${after.placedFirst} calls for ${CREATES} creates, ${after.resolved} resolved`,
      ),
      goal(
        'drop_before: 0, then 1 on the retry with the same key',
        before.placedFirst === 0 && before.placedAfterRetry === CREATES,
        `${before.placedFirst} placed first, ${before.placedAfterRetry} after the retries`,
      ),
    ],
    notes: [
      'each create goes to its own number; the look-up lists outbound calls since a minute before the create (1 GET) and reads the details of calls to that number (1 GET when found)',
    ],
  };
}

export async function callLifeRows(): Promise<RowResult[]> {
  const life = await loadLife();
  if (!life) {
    return [
      {
        row: "29. a call's life",
        command: 'npm run bench -- call-life',
        table: [['row'], ['not measured']],
        goals: [goal('dist has calls.waitFor', null, 'telephony-sdk not built yet')],
        notes: [],
      },
    ];
  }
  return [await liveListRow(life), await lostAnswersRow(life), await waitForRow(life)];
}
