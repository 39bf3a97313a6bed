import { TelephonyError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { serveSandbox } from './helpers.js';

/** Every call the sandbox holds (up to 100). */
const allCalls = async (client: ReturnType<Awaited<ReturnType<typeof serveSandbox>>['client']>) =>
  (await client.calls.listRecent({ limit: 100 })).items;

describe('answers lost on the way back, over the sandbox on 127.0.0.1', () => {
  it('drop_after: the sandbox places the call and drops the answer; a keyed create resolves with that call', async () => {
    const { sandbox, client } = await serveSandbox();
    const fault = sandbox.injectFault({ method: 'POST', path: '/v2/calls', kind: 'drop_after', times: 1 });
    const call = await client().calls.create(
      { to: '+14155550123', custom_data: { crm: 7 } },
      { idempotencyKey: 'job-1' },
    );
    expect(fault.hits).toBe(1);
    const placed = await allCalls(client());
    expect(placed.map((c) => c.id)).toEqual([call.id]);
    expect(call).toMatchObject({ custom_data: { crm: 7, telephony_sdk_idempotency_key: 'job-1' } });
  });

  it('drop_before: nothing placed, the create rejects unknown naming the look-up; the retry with the key places one', async () => {
    const { sandbox, client } = await serveSandbox();
    sandbox.injectFault({ method: 'POST', path: '/v2/calls', kind: 'drop_before', times: 1 });
    const error = await client()
      .calls.create({ to: '+14155550123' }, { idempotencyKey: 'job-2' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TelephonyError);
    expect(error).toMatchObject({ outcome: 'unknown' });
    expect((error as Error).message).toContain(
      'calls.findByIdempotencyKey("job-2") found no such call just now',
    );
    expect(await allCalls(client())).toEqual([]);

    const retried = await client().calls.create({ to: '+14155550123' }, { idempotencyKey: 'job-2' });
    expect((await allCalls(client())).map((c) => c.id)).toEqual([retried.id]);
  });

  it('drop_after on POST /v1/users: users.create resolves with the user, found by e-mail', async () => {
    const { sandbox, client } = await serveSandbox();
    sandbox.injectFault({ method: 'POST', path: '/v1/users', kind: 'drop_after', times: 1 });
    const user = await client().users.create({ name: 'Ann Lee', email: 'ann@example.com' });
    expect(user).toMatchObject({ name: 'Ann Lee', email: 'ann@example.com' });
    const listed = await client().users.list({ search: 'ann@example.com' });
    expect(listed.items.map((u) => u.id)).toEqual([user.id]);
  });
});
