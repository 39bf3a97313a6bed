import { describe, expect, it } from 'vitest';
import { rawSandbox } from './helpers.js';

function v1() {
  const raw = rawSandbox();
  const as = (method: string, path: string, body?: unknown) =>
    raw.send(method, path, 'sandbox_api_key', body);
  const create = async (name: string, email: string, extra: Record<string, unknown> = {}) =>
    (await as('POST', '/v1/users', { name, email, ...extra })).body.data.user;
  return { ...raw, as, create };
}

describe('v1 users', () => {
  it('creates a pending user with defaults, created_at and updated_at', async () => {
    const { as } = v1();
    const { status, body } = await as('POST', '/v1/users', {
      name: 'Ada Lovelace',
      email: 'ada@example.test',
      department: 'Engines',
      send_welcome_email: false,
    });
    expect(status).toBe(200);
    expect(body.data.user).toMatchObject({
      id: expect.any(String),
      name: 'Ada Lovelace',
      email: 'ada@example.test',
      role: 'user',
      status: 'pending',
      department: 'Engines',
      created_at: '2025-01-15T09:00:00.000Z',
      updated_at: '2025-01-15T09:00:00.000Z',
    });
  });

  it('carries last_login_at as a string in every form (list form included): its creation time, never null', async () => {
    const { sandbox, as, create } = v1();
    const created = await create('Ada', 'ada@example.test');
    await sandbox.advance(60_000);
    const read = (await as('GET', `/v1/users/${created.id}`)).body.data.user;
    const updated = (await as('PATCH', `/v1/users/${created.id}`, { status: 'active' })).body.data.user;
    const [listed] = (await as('GET', '/v1/users')).body.data.users;
    expect(updated.updated_at).toBe('2025-01-15T09:01:00.000Z');
    for (const user of [created, read, updated, listed]) {
      expect(user).toMatchObject({ id: created.id, created_at: '2025-01-15T09:00:00.000Z' });
      expect(user).toHaveProperty('last_login_at', '2025-01-15T09:00:00.000Z');
    }
  });

  it('a refused create stores nothing and takes no id', async () => {
    const { as, create } = v1();
    await create('Ada', 'ada@example.test');
    expect((await as('POST', '/v1/users', { name: 'Bob', email: 'ADA@example.test' })).status).toBe(400);
    expect((await as('POST', '/v1/users', { name: 'Bob', email: 'bob@example.test', phone: 7 })).status).toBe(
      400,
    );
    expect((await create('Bob', 'bob@example.test')).id).toBe('usr_000002');
    expect((await as('GET', '/v1/users')).body.pagination.total).toBe(2);
  });

  it.each<[Record<string, unknown>]>([
    [{ email: 'a@x.test' }],
    [{ name: 'A' }],
    [{ name: 'A', email: 'not-an-email' }],
    [{ name: 'A', email: 'a@x.test', role: 'owner' }],
    [{ name: 'A', email: 'a@x.test', status: 'active' }],
  ])('refuses %j with 400 in the v1 shape', async (body) => {
    const { as } = v1();
    const response = await as('POST', '/v1/users', body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      status: 'error',
      error: { code: 'invalid_parameter', message: expect.any(String), status_code: 400 },
    });
  });

  it('reads one user with preferences; unknown id is 404 in the v1 shape', async () => {
    const { as, create } = v1();
    const user = await create('Ada', 'ada@example.test');
    const read = (await as('GET', `/v1/users/${user.id}`)).body.data.user;
    expect(read.preferences).toEqual({
      language: expect.any(String),
      timezone: expect.any(String),
      notifications: { email: expect.any(Boolean), sms: expect.any(Boolean), push: expect.any(Boolean) },
    });
    const missing = await as('GET', '/v1/users/usr_nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toEqual({ code: 'not_found', message: expect.any(String), status_code: 404 });
  });

  it('PATCH changes only the given fields; status only to active or inactive', async () => {
    const { sandbox, as, create } = v1();
    const user = await create('Ada', 'ada@example.test', { phone: '+15551234567' });
    await sandbox.advance(60_000);
    const updated = (await as('PATCH', `/v1/users/${user.id}`, { status: 'active', location: 'London' })).body
      .data.user;
    expect(updated).toMatchObject({
      name: 'Ada',
      phone: '+15551234567',
      status: 'active',
      location: 'London',
      created_at: '2025-01-15T09:00:00.000Z',
      updated_at: '2025-01-15T09:01:00.000Z',
    });
    expect((await as('PATCH', `/v1/users/${user.id}`, { status: 'pending' })).status).toBe(400);
  });

  it('e-mail is unique, case-insensitively, on create and on PATCH', async () => {
    const { as, create } = v1();
    const ada = await create('Ada', 'ada@example.test');
    const grace = await create('Grace', 'grace@example.test');
    const again = await as('POST', '/v1/users', { name: 'Ada 2', email: 'ADA@example.test' });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('invalid_parameter');
    expect((await as('PATCH', `/v1/users/${grace.id}`, { email: 'Ada@Example.test' })).status).toBe(400);
    expect((await as('PATCH', `/v1/users/${ada.id}`, { email: 'ADA@example.test' })).status).toBe(200);
  });

  it('PATCH of an unknown id is 404 in the v1 shape', async () => {
    const { as } = v1();
    const response = await as('PATCH', '/v1/users/usr_nope', { name: 'X' });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      status: 'error',
      error: { code: 'not_found', message: expect.any(String), status_code: 404 },
    });
  });

  it('DELETE answers {deleted: true, id} and the user is gone', async () => {
    const { as, create } = v1();
    const user = await create('Ada', 'ada@example.test');
    expect((await as('DELETE', `/v1/users/${user.id}`)).body).toEqual({
      status: 'success',
      data: { deleted: true, id: user.id },
    });
    expect((await as('GET', `/v1/users/${user.id}`)).status).toBe(404);
    expect((await as('DELETE', `/v1/users/${user.id}`)).status).toBe(404);
  });

  it('lists with page pagination beside data, per_page default 10, list form only', async () => {
    const { as, create } = v1();
    for (let i = 1; i <= 23; i++) await create(`User ${i}`, `u${i}@example.test`);
    const first = await as('GET', '/v1/users');
    expect(first.body.pagination).toEqual({ total: 23, page: 1, per_page: 10, pages: 3 });
    expect(first.body.data.pagination).toBeUndefined();
    expect(first.body.data.users).toHaveLength(10);
    expect(Object.keys(first.body.data.users[0]).sort()).toEqual([
      'created_at',
      'email',
      'id',
      'last_login_at',
      'name',
      'role',
      'status',
      'updated_at',
    ]);
    const third = await as('GET', '/v1/users?page=3');
    expect(third.body.data.users.map((u: { name: string }) => u.name)).toEqual([
      'User 21',
      'User 22',
      'User 23',
    ]);
    expect((await as('GET', '/v1/users?per_page=101')).status).toBe(400);
    expect((await as('GET', '/v1/users?page=abc')).status).toBe(400);
  });

  it('filters by role, status and a case-insensitive search over name and e-mail', async () => {
    const { as, create } = v1();
    const ada = await create('Ada Lovelace', 'ada@engines.test', { role: 'admin' });
    await create('Grace Hopper', 'grace@navy.test');
    await as('PATCH', `/v1/users/${ada.id}`, { status: 'active' });
    const names = async (query: string) =>
      (await as('GET', `/v1/users?${query}`)).body.data.users.map((u: { name: string }) => u.name);
    expect(await names('role=admin')).toEqual(['Ada Lovelace']);
    expect(await names('status=pending')).toEqual(['Grace Hopper']);
    expect(await names('search=HOPPER')).toEqual(['Grace Hopper']);
    expect(await names('search=ENGINES')).toEqual(['Ada Lovelace']);
    expect((await as('GET', '/v1/users?role=owner')).status).toBe(400);
  });
});
