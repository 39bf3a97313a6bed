import { describe, expect, it } from 'vitest';
import { ActivityFeed, type ActivityRecord } from '../../../src/testing/activity.js';
import { logLine } from '../../../src/testing/activity-log.js';
import { consoleWorldOf } from '../../../src/testing/sandbox.js';
import { rawSandbox } from './helpers.js';

const SECRET = 'canary_client_secret_0f3a';
const API_KEY = 'canary_api_key_77c1';

function recorded(options: Parameters<typeof rawSandbox>[0] = {}) {
  const raw = rawSandbox(options);
  const records: ActivityRecord[] = [];
  consoleWorldOf(raw.sandbox).activity.subscribe((record) => records.push(record));
  return { ...raw, records };
}

describe('the activity feed', () => {
  it('records each request with its principal, plan and the budget used this minute; v1 keys by position, never a secret', async () => {
    const { sandbox, tokenFor, send, records } = recorded({
      clients: [{ clientId: 'app_1', clientSecret: SECRET, plan: { requestsPerMinute: 7 } }],
      apiKeys: [{ key: API_KEY, plan: 'pro' }],
    });
    const { access_token } = await tokenFor({ client_secret: SECRET });
    await send('GET', '/v2/calls/recent', access_token);
    await send('GET', '/v2/calls/recent', access_token);
    await send('GET', '/v1/users?page=2', API_KEY);
    await send('GET', '/v2/calls/recent', 'wrong');

    const rows = records.map((r) =>
      r.kind === 'request' ? [r.method, r.path, r.status, r.principal, r.rate] : r,
    );
    const app = { label: 'app_1', plan: '7/min' };
    expect(rows).toEqual([
      ['POST', '/v2/oauth/token', 200, null, null],
      ['GET', '/v2/calls/recent', 200, app, { used: 1, limit: 7 }],
      ['GET', '/v2/calls/recent', 200, app, { used: 2, limit: 7 }],
      ['GET', '/v1/users?page=2', 200, { label: 'apiKeys[0]', plan: 'pro' }, { used: 1, limit: 500 }],
      ['GET', '/v2/calls/recent', 401, null, null],
    ]);
    const everything = JSON.stringify([records, consoleWorldOf(sandbox).activity.recent()]);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(API_KEY);
    expect(everything).not.toContain(access_token);
  });

  it('the budget used is that of the current minute: it empties as the window slides', async () => {
    const { sandbox, tokenFor, send, records } = recorded();
    const { access_token } = await tokenFor();
    await send('GET', '/v2/calls/recent', access_token);
    await sandbox.advance(60_000);
    await send('GET', '/v2/calls/recent', access_token);
    expect(records.filter((r) => r.kind === 'request').map((r) => r.rate)).toEqual([
      null,
      { used: 1, limit: 100 },
      { used: 1, limit: 100 },
    ]);
  });

  it('records call changes and each delivery attempt with its next re-delivery time', async () => {
    const answers = [500, 200];
    const { sandbox, tokenFor, send, records } = recorded({
      deliveryFetch: async () => new Response(null, { status: answers.shift() ?? 200 }),
    });
    const { access_token } = await tokenFor();
    await send('POST', '/v2/webhooks', access_token, {
      url: 'http://127.0.0.1:9/hooks',
      events: ['call.incoming'],
    });
    const call = sandbox.simulateIncomingCall({ from: '+15557654321' });
    await sandbox.idle();
    await sandbox.advance(10_000);

    const start = sandbox.clock.now() - 10_000;
    expect(records.filter((r) => r.kind === 'call')).toEqual([
      expect.objectContaining({
        callId: call.id,
        direction: 'inbound',
        from: '+15557654321',
        status: 'ringing',
        previous: null,
      }),
    ]);
    const deliveries = records.filter((r) => r.kind === 'delivery');
    expect(deliveries).toEqual([
      expect.objectContaining({
        eventId: 'evt_00000001',
        type: 'call.incoming',
        attempt: 1,
        status: 500,
        at: start,
        nextAttemptAt: start + 10_000,
      }),
      expect.objectContaining({
        eventId: 'evt_00000001',
        attempt: 2,
        status: 200,
        at: start + 10_000,
        nextAttemptAt: null,
      }),
    ]);
    expect(deliveries.map((d) => [d.body, d.signature])).toEqual(
      sandbox.deliveries.map((d) => [d.body, d.signature]),
    );
    expect(deliveries.map(logLine)).toEqual([
      '09:00:00 call.incoming → http://127.0.0.1:9/hooks 500 (attempt 1, re-delivery at 09:00:10)',
      '09:00:10 call.incoming → http://127.0.0.1:9/hooks 200 (attempt 2)',
    ]);
  });

  it('keeps the latest records of each kind only, and a throwing listener breaks nothing', () => {
    const feed = new ActivityFeed();
    const heard: number[] = [];
    feed.subscribe(() => {
      throw new Error('a broken console tab');
    });
    const stop = feed.subscribe((record) => heard.push(record.seq));
    for (let i = 0; i < 501; i++) {
      feed.push({
        kind: 'request',
        at: i,
        method: 'GET',
        path: `/v2/${i}`,
        status: 200,
        fault: null,
        principal: null,
        rate: null,
      });
    }
    stop();
    feed.push({
      kind: 'request',
      at: 501,
      method: 'GET',
      path: '/v2/last',
      status: 200,
      fault: null,
      principal: null,
      rate: null,
    });
    const { requests } = feed.recent();
    expect(requests).toHaveLength(500);
    expect(requests[0]?.path).toBe('/v2/2');
    expect(requests.at(-1)?.path).toBe('/v2/last');
    expect(heard).toHaveLength(501);
  });
});
