import { ValidationError } from 'telephony-sdk';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { fullUser, listUser, usersPageBody } from '../../fixtures/users.js';
import { BASE_V1, CANARY, testClient } from '../../helpers/client.js';
import { route, seen } from './route.js';

describe('users (v1, API key)', () => {
  it('list sends page/per_page/role/status/search with the API key and returns list-form users', async () => {
    route('get', `${BASE_V1}/v1/users`, () =>
      usersPageBody(['u1'], { total: 1, page: 2, per_page: 5, pages: 2 }),
    );
    const page = await testClient().users.list({
      page: 2,
      per_page: 5,
      role: 'guest',
      status: 'pending',
      search: 'ann',
    });
    expect(seen[0]?.query).toBe('page=2&per_page=5&role=guest&status=pending&search=ann');
    expect(seen[0]?.authorization).toBe(`Bearer ${CANARY.apiKey}`);
    expect(page.items).toEqual([listUser('u1')]);
    expect(page.hasNextPage()).toBe(false);
  });

  it('for await walks every page: exactly `pages` requests, none past the last', async () => {
    route('get', `${BASE_V1}/v1/users`, ({ query }) => {
      const page = Number(new URLSearchParams(query).get('page') ?? 1);
      return usersPageBody([`u${page}a`, `u${page}b`], { total: 6, page, per_page: 2, pages: 3 });
    });
    const ids: string[] = [];
    for await (const user of testClient().users.list({ per_page: 2 })) ids.push(user.id);
    expect(ids).toEqual(['u1a', 'u1b', 'u2a', 'u2b', 'u3a', 'u3b']);
    expect(seen.map((request) => request.query)).toEqual([
      'per_page=2',
      'per_page=2&page=2',
      'per_page=2&page=3',
    ]);
  });

  it('list refuses per_page 0, page 0 and an unknown status, naming each, sending nothing', async () => {
    const error = await testClient()
      .users.list({ per_page: 0, page: 0, status: 'deleted' as 'active' })
      .catch((reason: unknown) => reason);
    expect((error as ValidationError).issues).toEqual([
      { path: 'page', message: 'must be ≥ 1' },
      { path: 'per_page', message: 'must be ≥ 1' },
      { path: 'status', message: 'must be one of "active", "inactive", "pending"' },
    ]);
    expect(seen).toHaveLength(0);
  });

  it('list refuses per_page 101 and an unknown role, naming each, sending nothing', async () => {
    await expect(testClient().users.list({ per_page: 101, role: 'owner' as 'admin' })).rejects.toMatchObject({
      name: 'ValidationError',
      issues: [
        { path: 'per_page', message: 'must be ≤ 100' },
        { path: 'role', message: 'must be one of "admin", "user", "guest"' },
      ],
    });
    expect(seen).toHaveLength(0);
  });

  it('get returns the user with preferences; the id is one encoded segment', async () => {
    route('get', `${BASE_V1}/v1/users/:id`, () => ({ status: 'success', data: { user: fullUser('u/1') } }));
    const user = await testClient().users.get('u/1');
    expect(seen[0]?.path).toBe('/v1/users/u%2F1');
    expect(user).toEqual(fullUser('u/1'));
    expect(user.preferences?.notifications?.push).toBe(true);
    expectTypeOf(user.role).toExtend<string>();
  });

  it('create POSTs the exact body and returns the pending user', async () => {
    const created = { ...listUser('u9', { status: 'pending', last_login_at: null }) };
    route('post', `${BASE_V1}/v1/users`, () => ({ status: 'success', data: { user: created } }));
    const user = await testClient().users.create({
      name: 'Ann Lee',
      email: 'ann@example.com',
      role: 'admin',
      department: 'Sales',
      send_welcome_email: false,
    });
    expect(seen[0]?.body).toEqual({
      name: 'Ann Lee',
      email: 'ann@example.com',
      role: 'admin',
      department: 'Sales',
      send_welcome_email: false,
    });
    expect(user).toEqual(created);
  });

  it('create refuses an unknown role and an unknown field', async () => {
    await expect(
      testClient().users.create({
        name: 'Ann',
        email: 'ann@example.com',
        role: 'owner' as 'admin',
        // @ts-expect-error not a field of POST /v1/users
        status: 'active',
      }),
    ).rejects.toMatchObject({
      name: 'ValidationError',
      issues: [
        { path: 'role', message: 'must be one of "admin", "user", "guest"' },
        { path: 'status', message: 'is not a known parameter' },
      ],
    });
    expect(seen).toHaveLength(0);
  });

  it('takes any local@domain address, international ones included, and refuses what is not one', async () => {
    route('post', `${BASE_V1}/v1/users`, () => ({ status: 'success', data: { user: fullUser('usr_1') } }));
    for (const email of ['josé@example.com', 'user@例え.jp', 'ops@localhost'])
      await expect(testClient().users.create({ name: 'n', email })).resolves.toMatchObject({ id: 'usr_1' });
    for (const email of ['nope', 'a b@example.com', '@example.com', 'a@'])
      await expect(testClient().users.create({ name: 'n', email })).rejects.toMatchObject({
        issues: [{ path: 'email', message: 'must be an e-mail address' }],
      });
  });

  it('create requires name and email', async () => {
    await expect(testClient().users.create({ name: '', email: 'nope' })).rejects.toMatchObject({
      name: 'ValidationError',
      issues: [
        { path: 'name', message: 'must not be empty' },
        { path: 'email', message: 'must be an e-mail address' },
      ],
    });
    await expect(testClient().users.create({} as { name: string; email: string })).rejects.toMatchObject({
      issues: [
        { path: 'name', message: 'is required' },
        { path: 'email', message: 'is required' },
      ],
    });
    expect(seen).toHaveLength(0);
  });

  it('update PATCHes only the given fields; status is active or inactive only', async () => {
    route('patch', `${BASE_V1}/v1/users/:id`, () => ({
      status: 'success',
      data: { user: listUser('u1', { status: 'inactive' }) },
    }));
    const user = await testClient().users.update('u1', { status: 'inactive', location: 'Lyon' });
    expect(seen[0]).toMatchObject({
      method: 'PATCH',
      path: '/v1/users/u1',
      body: { status: 'inactive', location: 'Lyon' },
    });
    expect(user.status).toBe('inactive');
    await expect(testClient().users.update('u1', { status: 'pending' as 'active' })).rejects.toMatchObject({
      issues: [{ path: 'status', message: 'must be one of "active", "inactive"' }],
    });
    await expect(
      testClient().users.update('u1', { email: 'nope', role: 'owner' as 'admin', name: '' }),
    ).rejects.toMatchObject({
      issues: [
        { path: 'name', message: 'must not be empty' },
        { path: 'email', message: 'must be an e-mail address' },
        { path: 'role', message: 'must be one of "admin", "user", "guest"' },
      ],
    });
    expect(seen).toHaveLength(1);
  });

  it('delete returns {deleted, id}', async () => {
    route('delete', `${BASE_V1}/v1/users/:id`, () => ({
      status: 'success',
      data: { deleted: true, id: 'u1' },
    }));
    expect(await testClient().users.delete('u1')).toEqual({ deleted: true, id: 'u1' });
    expect(seen.map((request) => `${request.method} ${request.path}`)).toEqual(['DELETE /v1/users/u1']);
  });

  it('an unknown role from the service passes through; a wrong type names field and operation', async () => {
    route('get', `${BASE_V1}/v1/users/:id`, ({ path }) =>
      path.endsWith('u1')
        ? { status: 'success', data: { user: listUser('u1', { role: 'owner' }) } }
        : { status: 'success', data: { user: listUser('u2', { email: 42 }) } },
    );
    expect((await testClient().users.get('u1')).role).toBe('owner');
    await expect(testClient().users.get('u2')).rejects.toMatchObject({
      name: 'ResponseValidationError',
      message: 'GET /v1/users/u2: data.user.email: expected string, got number',
    });
  });
});

it('ValidationError is what users catch', () => expect(ValidationError.name).toBe('ValidationError'));
