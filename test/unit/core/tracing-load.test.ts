/**
 * The span code (spans.ts) is loaded by `import()` when a client is given a tracer, a chunk of its
 * own in a bundle. Calls made before it has loaded (an `import()` never settles synchronously, so
 * calls made right after the client's construction are) wait for it and are traced like any other;
 * a list called then is still iterable.
 */
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { detailCall, recentCallsBody } from '../../fixtures/calls.js';
import { BASE, CANARY, testClient } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';
import { otel, spanTree } from '../../helpers/tracing.js';

describe('tracing while the span code loads', () => {
  it('calls made before the span code has loaded are traced, and a list stays iterable', async () => {
    const { tracer, spans } = otel();
    server.use(
      http.get(`${BASE}/v2/calls/call_1`, () =>
        HttpResponse.json({ status: 'success', data: { call: detailCall('call_1') } }),
      ),
      http.get(`${BASE}/v2/calls/recent`, () =>
        HttpResponse.json(recentCallsBody(['call_1'], { total: 1, limit: 20, offset: 0, has_more: false })),
      ),
    );
    const client = testClient({
      accessToken: CANARY.accessToken,
      clientId: undefined,
      clientSecret: undefined,
      tracer,
    });
    // Both start before the chunk is loaded.
    const detail = client.calls.get('call_1');
    const ids: string[] = [];
    for await (const call of client.calls.listRecent()) ids.push(call.id);
    expect((await detail).id).toBe('call_1');
    expect(ids).toEqual(['call_1']);
    await client.calls.get('call_1'); // loaded by now: the synchronous path
    const names = spanTree(spans())
      .split('\n')
      .map((line) => line.split(' [')[0]);
    expect(names.sort()).toEqual(['  GET', '  GET', '  GET', 'calls.get', 'calls.get', 'calls.listRecent']);
  });
});
