/**
 * `sandbox.deliveries` is bounded: a CLI sandbox that runs for days keeps the latest attempts only.
 */
import { expect, it } from 'vitest';
import { Deliverer, type SandboxEvent } from '../../../src/testing/delivery.js';

it('keeps the latest attempts only, oldest dropped first', async () => {
  const answered = { status: 200, response: { headers: {}, body: 'ok', truncated: false }, noAnswer: null };
  const deliverer = new Deliverer(
    { now: () => Date.now() } as never,
    async () => answered,
    () => {},
    3,
  );
  const event = (id: string): SandboxEvent => ({ id, type: 'call.ended', created_at: '', data: {} });
  for (const id of ['evt_1', 'evt_2', 'evt_3', 'evt_4', 'evt_5']) {
    deliverer.send(event(id), 'http://127.0.0.1:9/hooks', 'secret');
    await deliverer.idle();
  }
  expect(deliverer.deliveries.map((delivery) => delivery.event.id)).toEqual(['evt_3', 'evt_4', 'evt_5']);
});
