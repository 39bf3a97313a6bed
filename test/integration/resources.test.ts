import { BadRequestError, NotFoundError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { serveSandbox } from './helpers.js';

describe('calls over real HTTP', () => {
  it('create, detail, end, transfer', async () => {
    const { sandbox, client } = await serveSandbox();
    const sdk = client();
    const created = await sdk.calls.create({ to: '+15551234567', custom_data: { ticket: 7 } });
    expect(created).toMatchObject({
      status: 'initiating',
      direction: 'outbound',
      custom_data: { ticket: 7 },
    });
    await sandbox.advance(5_000);
    expect(await sdk.calls.get(created.id)).toMatchObject({
      id: created.id,
      status: 'answered',
      transferred: false,
    });
    const moved = await sdk.calls.transfer(created.id, { to: '+15557654321', type: 'attended' });
    expect(moved).toEqual({
      id: created.id,
      status: 'transferring',
      transfer_to: '+15557654321',
      transfer_type: 'attended',
    });
    await sandbox.advance(3_000);
    const ended = await sdk.calls.end(created.id);
    expect(ended).toEqual({
      id: created.id,
      status: 'ended',
      ended_at: new Date(sandbox.clock.now()).toISOString(),
    });
    await expect(sdk.calls.end(created.id)).rejects.toBeInstanceOf(BadRequestError);
    await expect(sdk.calls.get('call_missing')).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('legacyCalls.list reads GET /v1/calls in the short form, with the API key, page by page', async () => {
    const { client } = await serveSandbox();
    const sdk = client();
    const placed = new Set<string>();
    for (let i = 0; i < 3; i++) placed.add((await sdk.calls.create({ to: '+15551234567' })).id);
    const listed: unknown[] = [];
    for await (const call of sdk.legacyCalls.list({ per_page: 2, status: 'initiating' })) listed.push(call);
    expect(new Set(listed.map((call) => (call as { id: string }).id))).toEqual(placed);
    expect(listed[0]).toEqual({
      id: expect.any(String),
      from: expect.any(String),
      to: '+15551234567',
      status: 'initiating',
    });
  });

  it('listRecent walks every page with offset pagination, newest first, one request per page', async () => {
    const { sandbox, client } = await serveSandbox();
    const sdk = client();
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      ids.push((await sdk.calls.create({ to: '+15551234567' })).id);
      await sandbox.advance(1_000);
    }
    let requests = 0;
    sdk.on('request', () => requests++);
    const seen: string[] = [];
    for await (const call of sdk.calls.listRecent({ limit: 10, direction: 'outbound' })) seen.push(call.id);
    expect(seen).toEqual([...ids].reverse());
    expect(requests).toBe(3);
    const page = await sdk.calls.listRecent({ limit: 10, offset: 20 });
    expect(page.pagination).toEqual({ total: 25, limit: 10, offset: 20, has_more: false });
    expect(page.hasNextPage()).toBe(false);
  });

  it('stats by day', async () => {
    const { sandbox, client } = await serveSandbox();
    const sdk = client();
    await sdk.calls.create({ to: '+15551234567' });
    await sandbox.advance(40_000);
    const stats = await sdk.stats.calls({ from: '2025-01-15', to: '2025-01-15', group_by: 'day' });
    expect(stats).toMatchObject({ total_calls: 1, total_duration: 30, answered_calls: 1 });
    expect(stats.by_day).toEqual([
      { date: '2025-01-15', total_calls: 1, inbound_calls: 0, outbound_calls: 1, total_duration: 30 },
    ]);
  });
});

describe('users over real HTTP (v1)', () => {
  it('CRUD and page pagination across many pages', async () => {
    const { client } = await serveSandbox();
    const sdk = client();
    const created = [];
    for (let i = 1; i <= 23; i++)
      created.push(await sdk.users.create({ name: `User ${i}`, email: `u${i}@x.test` }));
    expect(created[0]).toMatchObject({ status: 'pending', role: 'user' });
    // SPEC.md types last_login_at as a string in every form: the sandbox gives its creation time.
    expect(created[0]?.last_login_at).toBe(created[0]?.created_at);
    expect(created[0]?.last_login_at).toEqual(expect.any(String));
    let requests = 0;
    sdk.on('request', () => requests++);
    const names: string[] = [];
    for await (const user of sdk.users.list()) names.push(user.name);
    expect(names).toHaveLength(23);
    expect(requests).toBe(3);
    const first = created[0];
    if (!first) throw new Error('no user');
    expect(await sdk.users.update(first.id, { status: 'active' })).toMatchObject({ status: 'active' });
    expect((await sdk.users.get(first.id)).preferences).toBeDefined();
    expect(await sdk.users.delete(first.id)).toEqual({ deleted: true, id: first.id });
    const error = await sdk.users.get(first.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', apiVersion: 'v1' });
  });
});
