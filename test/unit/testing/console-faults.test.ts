/** The console's fault actions, in process: add, clear one, clear all; the snapshot and the event stream. */
import { describe, expect, it } from 'vitest';
import { consoleOf, ORIGIN, readEvents } from './console-helpers.js';

describe('console fault actions', () => {
  it('adds a fault as injectFault does, and clears one or all', async () => {
    const { sandbox, post } = consoleOf();
    const added = await post('faults', { method: 'POST', path: '/v2/calls', kind: 'drop_after', times: 1 });
    expect(added).toEqual({
      status: 201,
      body: {
        fault: {
          id: 'fault_1',
          method: 'POST',
          path: '/v2/calls',
          kind: 'drop_after',
          times: 1,
          hits: 0,
          summary: 'fault_1 POST /v2/calls drop_after, 0 hits of 1',
        },
      },
    });
    await post('faults', { path: '/v2/calls/*', kind: 'status', status: 503 });
    await post('faults', { path: '/v2/oauth/token', kind: 'delay', delayMs: 100 });
    expect(sandbox.faults.map((fault) => fault.id)).toEqual(['fault_1', 'fault_2', 'fault_3']);

    expect(await post('faults/fault_2/clear', {})).toEqual({ status: 200, body: { cleared: 1 } });
    expect(sandbox.faults.map((fault) => fault.id)).toEqual(['fault_1', 'fault_3']);
    expect((await post('faults/fault_2/clear', {})).status).toBe(404);
    expect(await post('faults/clear', {})).toEqual({ status: 200, body: { cleared: 2 } });
    expect(sandbox.faults).toEqual([]);
  });

  it.each([
    [{ path: '/v2/calls', kind: 'delay' }, 'delayMs (ms) is required: a whole number ≥ 0'],
    [{ path: '/v2/calls', kind: 'status', status: '500' }, 'status must be from 400 to 599'],
    [{ path: 3, kind: 'status' }, 'path must start with /'],
    [{ path: '/v2/calls', kind: 'status', extra: 1 }, 'extra'],
  ])('refuses %o with a 400 naming the field, adding nothing', async (body, message) => {
    const { sandbox, post } = consoleOf();
    const refused = await post('faults', body);
    expect([refused.status, refused.body.code]).toEqual([400, 'invalid_parameter']);
    expect(refused.body.message).toContain(message);
    expect(sandbox.faults).toEqual([]);
  });

  it('the snapshot lists the faults in force, and each change (injected, hit, cleared) is streamed', async () => {
    const { sandbox, handle } = consoleOf();
    const fault = sandbox.injectFault({ path: '/v2/calls/recent', kind: 'status', times: 2 });
    const response = await handle(new Request(`${ORIGIN}/_console/events`));
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no stream');
    const [snapshot] = await readEvents(reader, 1);
    expect(snapshot?.data).toMatchObject({
      faults: [{ id: fault.id, hits: 0, summary: 'fault_1 any /v2/calls/recent status 500, 0 hits of 2' }],
    });
    await sandbox.fetch('http://sandbox.test/v2/calls/recent');
    fault.clear();
    const events = (await readEvents(reader, 3)).filter((event) => event.event === 'faults');
    expect(events.map((event) => event.data)).toEqual([
      [expect.objectContaining({ hits: 1, summary: 'fault_1 any /v2/calls/recent status 500, 1 hit of 2' })],
      [],
    ]);
    await reader.cancel();
  });
});
