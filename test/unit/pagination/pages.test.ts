import { Page, PagePromise, type RawRequest, TelephonyError, ValidationError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { Calls } from '../../../src/resources/calls.js';
import { Users } from '../../../src/resources/users.js';
import { recentCallsBody, recentCallsPagedBody } from '../../fixtures/calls.js';
import { usersPageBody } from '../../fixtures/users.js';
import { fakeTransport } from './fake-transport.js';

const ids = (prefix: string, from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}${from + i}`);

/** 7 calls served 3 per page by offset. */
function offsetServer(total = 7) {
  return fakeTransport((request) => {
    const offset = Number(request.query?.offset ?? 0);
    const limit = Number(request.query?.limit ?? 20);
    const count = Math.max(0, Math.min(limit, total - offset));
    return recentCallsBody(ids('call_', offset, count), {
      total,
      limit,
      offset,
      has_more: offset + count < total,
    });
  });
}

describe('v2 offset pagination', () => {
  it('await gives the first page: items, wire pagination, hasNextPage', async () => {
    const { transport, requests } = offsetServer();
    const page = await new Calls(transport).listRecent({ limit: 3 });
    expect(page).toBeInstanceOf(Page);
    expect(page.items.map((call) => call.id)).toEqual(['call_0', 'call_1', 'call_2']);
    expect(page.pagination).toEqual({ total: 7, limit: 3, offset: 0, has_more: true });
    expect(page.hasNextPage()).toBe(true);
    expect(requests).toHaveLength(1);
  });

  it('for await walks every page with next offset = offset + items received, keeping filters, and stops at the last', async () => {
    const { transport, requests } = offsetServer();
    const seen: string[] = [];
    for await (const call of new Calls(transport).listRecent({
      limit: 3,
      direction: 'inbound',
      status: 'missed',
    })) {
      seen.push(call.id);
    }
    expect(seen).toEqual(ids('call_', 0, 7));
    expect(requests.map((request) => request.query)).toEqual([
      { limit: 3, direction: 'inbound', status: 'missed' },
      { limit: 3, direction: 'inbound', status: 'missed', offset: 3 },
      { limit: 3, direction: 'inbound', status: 'missed', offset: 6 },
    ]);
  });

  it('getNextPage follows, and rejects clearly on the last page without sending', async () => {
    const { transport, requests } = offsetServer(4);
    const first = await new Calls(transport).listRecent({ limit: 3 });
    const last = await first.getNextPage();
    expect(last.items.map((call) => call.id)).toEqual(['call_3']);
    expect(last.hasNextPage()).toBe(false);
    await expect(last.getNextPage()).rejects.toThrow(/No next page/);
    await expect(last.getNextPage()).rejects.toBeInstanceOf(TelephonyError);
    expect(requests).toHaveLength(2);
  });

  it('an empty page ends iteration even when has_more says otherwise', async () => {
    const { transport, requests } = fakeTransport(() =>
      recentCallsBody([], { total: 50, limit: 20, offset: 0, has_more: true }),
    );
    const seen: unknown[] = [];
    for await (const call of new Calls(transport).listRecent()) seen.push(call);
    expect(seen).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('tolerates the page-style object inside data (the short calls example)', async () => {
    const { transport, requests } = fakeTransport((request) => {
      const offset = Number(request.query?.offset ?? 0);
      const page = offset / 2 + 1;
      return recentCallsPagedBody(ids('call_', offset, page < 3 ? 2 : 1), {
        total: 5,
        page,
        per_page: 2,
        pages: 3,
      });
    });
    const seen: string[] = [];
    for await (const call of new Calls(transport).listRecent({ limit: 2 })) seen.push(call.id);
    expect(seen).toEqual(ids('call_', 0, 5));
    expect(requests.map((request) => request.query?.offset)).toEqual([undefined, 2, 4]);
  });

  it('a page-style v2 page also carries offset-style fields, so pagination.has_more always holds', async () => {
    const { transport } = fakeTransport((request) => {
      const offset = Number(request.query?.offset ?? 0);
      const page = offset / 2 + 1;
      return recentCallsPagedBody(ids('call_', offset, 2), { total: 4, page, per_page: 2, pages: 2 });
    });
    const first = await new Calls(transport).listRecent({ limit: 2 });
    expect(first.pagination).toEqual({
      total: 4,
      page: 1,
      per_page: 2,
      pages: 2,
      limit: 2,
      offset: 0,
      has_more: true,
    });
    const last = await first.getNextPage();
    expect(last.pagination).toMatchObject({ page: 2, offset: 2, has_more: false });
    expect(last.hasNextPage()).toBe(false);
  });

  it('the first request starts at once, before any await', () => {
    const { transport, requests } = offsetServer();
    const pages = new Calls(transport).listRecent();
    expect(pages).toBeInstanceOf(PagePromise);
    expect(pages).toBeInstanceOf(Promise);
    return pages.then(() => expect(requests).toHaveLength(1));
  });

  it('then/catch/finally delegate to the page', async () => {
    const { transport } = offsetServer();
    const calls = new Calls(transport);
    expect(await calls.listRecent({ limit: 3 }).then((page) => page.items.length)).toBe(3);
    let finallyRan = false;
    await calls.listRecent().finally(() => {
      finallyRan = true;
    });
    expect(finallyRan).toBe(true);
    const error = await calls.listRecent({ limit: 500 }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ValidationError);
  });

  it('bad params reject (never throw synchronously), for await included, and nothing is sent', async () => {
    const { transport, requests } = offsetServer();
    const calls = new Calls(transport);
    const pending = calls.listRecent({ limit: 0 });
    await expect(pending).rejects.toMatchObject({ issues: [{ path: 'limit', message: 'must be ≥ 1' }] });
    await expect(async () => {
      for await (const _ of calls.listRecent({ offset: -1 })) void _;
    }).rejects.toBeInstanceOf(ValidationError);
    expect(requests).toHaveLength(0);
  });

  it('an error on a later page is thrown from the loop after the earlier items, with no further request', async () => {
    const failure = new TelephonyError('page 2 failed');
    const { transport, requests } = fakeTransport((request) => {
      if (request.query?.offset === 3) throw failure;
      return recentCallsBody(ids('call_', 0, 3), { total: 9, limit: 3, offset: 0, has_more: true });
    });
    const seen: string[] = [];
    const thrown = await (async () => {
      for await (const call of new Calls(transport).listRecent({ limit: 3 })) seen.push(call.id);
    })().catch((error: unknown) => error);
    expect(thrown).toBe(failure);
    expect(seen).toEqual(ids('call_', 0, 3));
    expect(requests).toHaveLength(2);
  });

  it('keeps the per-call request options on every page request', async () => {
    const seenOptions: unknown[] = [];
    const { transport } = offsetServer();
    const send = transport.send.bind(transport);
    transport.send = (request, options) => {
      seenOptions.push(options);
      return send(request, options);
    };
    const options = { timeout: 1234, headers: { 'x-trace': 't1' } };
    for await (const _ of new Calls(transport).listRecent({ limit: 3 }, options)) void _;
    expect(seenOptions).toEqual([options, options, options]);
  });

  it('a page past which the server claims more but sent a bad pagination object fails naming the field', async () => {
    const { transport } = fakeTransport(() => ({
      status: 'success',
      data: { calls: [], pagination: { total: 1, limit: 20, offset: 0 } },
    }));
    await expect(new Calls(transport).listRecent()).rejects.toThrow(
      'GET /v2/calls/recent: data.pagination.has_more: required field is missing',
    );
  });
});

describe('v1 numbered pagination', () => {
  function usersServer(total: number, perPage: number) {
    const pages = Math.ceil(total / perPage);
    return fakeTransport((request) => {
      const page = Number(request.query?.page ?? 1);
      const from = (page - 1) * perPage;
      return usersPageBody(ids('user_', from, Math.min(perPage, total - from)), {
        total,
        page,
        per_page: perPage,
        pages,
      });
    });
  }

  it('for await walks page 1..pages with the filters, and sends nothing past the last page', async () => {
    const { transport, requests } = usersServer(5, 2);
    const seen: string[] = [];
    for await (const user of new Users(transport).list({ per_page: 2, role: 'admin' })) seen.push(user.id);
    expect(seen).toEqual(ids('user_', 0, 5));
    expect(requests.map((request) => request.query)).toEqual([
      { per_page: 2, role: 'admin' },
      { per_page: 2, role: 'admin', page: 2 },
      { per_page: 2, role: 'admin', page: 3 },
    ]);
  });

  it('await gives the first page with the sibling pagination object as returned', async () => {
    const { transport } = usersServer(5, 2);
    const page = await new Users(transport).list({ per_page: 2 });
    expect(page.pagination).toEqual({ total: 5, page: 1, per_page: 2, pages: 3 });
    expect(page.hasNextPage()).toBe(true);
  });

  it('an empty page stops even if page < pages', async () => {
    const { transport, requests } = fakeTransport(() =>
      usersPageBody([], { total: 30, page: 1, per_page: 10, pages: 3 }),
    );
    const page = await new Users(transport).list();
    expect(page.hasNextPage()).toBe(false);
    for await (const _ of new Users(transport).list()) void _;
    expect(requests).toHaveLength(2);
  });

  it('tolerates the page object inside data', async () => {
    const { transport } = fakeTransport(() => ({
      status: 'success',
      data: { users: [], pagination: { total: 0, page: 1, per_page: 10, pages: 0 } },
    }));
    const page = await new Users(transport).list();
    expect(page.pagination).toEqual({ total: 0, page: 1, per_page: 10, pages: 0 });
  });

  it('a missing pagination object is a ResponseValidationError naming it', async () => {
    const { transport } = fakeTransport(() => ({ status: 'success', data: { users: [] } }));
    await expect(new Users(transport).list()).rejects.toMatchObject({
      name: 'ResponseValidationError',
      message: 'GET /v1/users: pagination: required field is missing',
    });
  });
});

/** Fails the test instead of hanging when iteration does not end. */
function bounded<T>(answer: (request: RawRequest) => T, limit = 20) {
  return fakeTransport((request) => {
    limit--;
    if (limit < 0) throw new Error('iteration did not end');
    return answer(request);
  });
}

const drain = async (pages: AsyncIterable<{ id: string }>) => {
  const seen: string[] = [];
  for await (const item of pages) seen.push(item.id);
  return seen;
};

describe('one page resolves with what the service sent, whatever was asked', () => {
  it('v1: the first page of users.list({ page: 2 }) answered with page 1 resolves as page 1', async () => {
    const { transport, requests } = fakeTransport(() =>
      usersPageBody(ids('user_', 0, 2), { total: 4, page: 1, per_page: 2, pages: 2 }),
    );
    const page = await new Users(transport).list({ page: 2, per_page: 2 });
    expect(page.items.map((user) => user.id)).toEqual(['user_0', 'user_1']);
    expect(page.pagination).toEqual({ total: 4, page: 1, per_page: 2, pages: 2 });
    expect(page.hasNextPage()).toBe(true);
    expect(requests).toHaveLength(1);
  });

  it('v1: an empty list answered with page 0 of 0 to users.list({ page: 1 }) resolves, with no next page', async () => {
    const { transport, requests } = fakeTransport(() =>
      usersPageBody([], { total: 0, page: 0, per_page: 10, pages: 0 }),
    );
    const page = await new Users(transport).list({ page: 1 });
    expect(page.pagination).toEqual({ total: 0, page: 0, per_page: 10, pages: 0 });
    expect(page.hasNextPage()).toBe(false);
    expect(await drain(new Users(transport).list({ page: 1 }))).toEqual([]);
    expect(requests).toHaveLength(2);
  });

  it('v1: an out-of-range page clamped to the last one resolves, with no next page and no request past it', async () => {
    const { transport, requests } = fakeTransport(() =>
      usersPageBody(['user_4'], { total: 5, page: 3, per_page: 2, pages: 3 }),
    );
    const page = await new Users(transport).list({ page: 99, per_page: 2 });
    expect(page.pagination).toEqual({ total: 5, page: 3, per_page: 2, pages: 3 });
    expect(page.hasNextPage()).toBe(false);
    expect(await drain(new Users(transport).list({ page: 99, per_page: 2 }))).toEqual(['user_4']);
    expect(requests).toHaveLength(2);
  });

  it('v2: an out-of-range offset clamped to the last page resolves, with no next page', async () => {
    const { transport, requests } = fakeTransport(() =>
      recentCallsBody(ids('call_', 20, 5), { total: 25, limit: 10, offset: 20, has_more: false }),
    );
    const page = await new Calls(transport).listRecent({ offset: 1000, limit: 10 });
    expect(page.pagination).toEqual({ total: 25, limit: 10, offset: 20, has_more: false });
    expect(page.items).toHaveLength(5);
    expect(page.hasNextPage()).toBe(false);
    expect(requests).toHaveLength(1);
  });

  it('v2: a clamped page that still says has_more ends at total (offset + received ≥ total)', async () => {
    const { transport, requests } = bounded(() =>
      recentCallsBody(ids('call_', 20, 5), { total: 25, limit: 10, offset: 20, has_more: true }),
    );
    const page = await new Calls(transport).listRecent({ offset: 1000, limit: 10 });
    expect(page.pagination).toMatchObject({ offset: 20, has_more: true });
    expect(page.hasNextPage()).toBe(false);
    expect(await drain(new Calls(transport).listRecent({ offset: 1000, limit: 10 }))).toEqual(
      ids('call_', 20, 5),
    );
    expect(requests).toHaveLength(2);
  });

  it('getNextPage resolves with a page that repeats the previous one, which has no next page', async () => {
    const { transport, requests } = bounded(() =>
      usersPageBody(ids('user_', 0, 2), { total: 6, page: 1, per_page: 2, pages: 3 }),
    );
    const first = await new Users(transport).list({ per_page: 2 });
    const again = await first.getNextPage();
    expect(requests[1]?.query).toEqual({ per_page: 2, page: 2 });
    expect(again.items.map((user) => user.id)).toEqual(['user_0', 'user_1']);
    expect(again.pagination).toEqual({ total: 6, page: 1, per_page: 2, pages: 3 });
    expect(again.hasNextPage()).toBe(false);
    await expect(again.getNextPage()).rejects.toThrow(/No next page/);
    expect(requests).toHaveLength(2);
  });

  it('v2 page style: getNextPage resolves with the page the service sent', async () => {
    const { transport, requests } = bounded(() =>
      recentCallsPagedBody(ids('call_', 0, 2), { total: 6, page: 1, per_page: 2, pages: 3 }),
    );
    const first = await new Calls(transport).listRecent({ limit: 2 });
    const again = await first.getNextPage();
    expect(requests[1]?.query).toEqual({ limit: 2, offset: 2, page: 2 });
    expect(again.pagination).toMatchObject({ page: 1, pages: 3, has_more: true });
    expect(again.hasNextPage()).toBe(false);
    expect(requests).toHaveLength(2);
  });
});

describe('iteration ends on a service that makes no progress or runs past total', () => {
  it('v2: has_more forever past total ends once offset + received reaches total', async () => {
    const { transport, requests } = bounded((request) => {
      const offset = Number(request.query?.offset ?? 0);
      return recentCallsBody(ids('call_', offset, 2), { total: 5, limit: 2, offset, has_more: true });
    });
    expect(await drain(new Calls(transport).listRecent({ limit: 2 }))).toEqual(ids('call_', 0, 6));
    expect(requests.map((request) => request.query?.offset)).toEqual([undefined, 2, 4]);
  });

  it('v2: an answer that starts before the asked offset (overlapping the previous page) ends iteration', async () => {
    const { transport, requests } = bounded((request) => {
      const asked = Number(request.query?.offset ?? 0);
      const offset = asked === 0 ? 0 : asked - 1;
      return recentCallsBody(ids('call_', offset, 2), { total: 10, limit: 2, offset, has_more: true });
    });
    expect(await drain(new Calls(transport).listRecent({ limit: 2 }))).toEqual(['call_0', 'call_1']);
    expect(requests).toHaveLength(2);
  });

  it('v2: the same offset answered again ends quietly without repeating its items', async () => {
    const { transport, requests } = bounded(() =>
      recentCallsBody(ids('call_', 0, 2), { total: 10, limit: 2, offset: 0, has_more: true }),
    );
    expect(await drain(new Calls(transport).listRecent({ limit: 2 }))).toEqual(['call_0', 'call_1']);
    expect(requests.map((request) => request.query)).toEqual([{ limit: 2 }, { limit: 2, offset: 2 }]);
  });

  it('v2: an offset that goes back ends iteration after the pages that advanced', async () => {
    const { transport, requests } = bounded((request) => {
      const asked = Number(request.query?.offset ?? 0);
      const offset = asked === 4 ? 2 : asked;
      return recentCallsBody(ids('call_', offset, 2), { total: 10, limit: 2, offset, has_more: true });
    });
    expect(await drain(new Calls(transport).listRecent({ limit: 2 }))).toEqual(ids('call_', 0, 4));
    expect(requests).toHaveLength(3);
  });

  it('v2 page style: page 1 answered again ends quietly; the next request carried page as well as offset', async () => {
    const { transport, requests } = bounded(() =>
      recentCallsPagedBody(ids('call_', 0, 2), { total: 4, page: 1, per_page: 2, pages: 2 }),
    );
    expect(await drain(new Calls(transport).listRecent({ limit: 2 }))).toEqual(['call_0', 'call_1']);
    expect(requests.map((request) => request.query)).toEqual([
      { limit: 2 },
      { limit: 2, offset: 2, page: 2 },
    ]);
  });

  it('v2 page style: pages that grow forever end once the items seen reach total', async () => {
    const { transport, requests } = bounded((request) => {
      const page = Number(request.query?.page ?? 1);
      return recentCallsPagedBody(ids('call_', (page - 1) * 2, 2), {
        total: 4,
        page,
        per_page: 2,
        pages: page + 1,
      });
    });
    expect(await drain(new Calls(transport).listRecent({ limit: 2 }))).toEqual(ids('call_', 0, 4));
    expect(requests).toHaveLength(2);
  });

  it('v1: page 1 answered to a request for page 2 ends quietly, without repeating its items', async () => {
    const { transport, requests } = bounded(() =>
      usersPageBody(ids('user_', 0, 2), { total: 4, page: 1, per_page: 2, pages: 2 }),
    );
    expect(await drain(new Users(transport).list({ per_page: 2 }))).toEqual(['user_0', 'user_1']);
    expect(requests.map((request) => request.query)).toEqual([{ per_page: 2 }, { per_page: 2, page: 2 }]);
  });

  it('v1: a page number that goes back ends iteration after the pages that advanced', async () => {
    const { transport, requests } = bounded((request) => {
      const asked = Number(request.query?.page ?? 1);
      const page = asked === 3 ? 1 : asked;
      return usersPageBody(ids('user_', (page - 1) * 2, 2), { total: 8, page, per_page: 2, pages: 4 });
    });
    expect(await drain(new Users(transport).list({ per_page: 2 }))).toEqual(ids('user_', 0, 4));
    expect(requests).toHaveLength(3);
  });

  it('v1: pages that grow forever end once the items seen reach total', async () => {
    const { transport, requests } = bounded((request) => {
      const page = Number(request.query?.page ?? 1);
      return usersPageBody(ids('user_', (page - 1) * 2, 2), { total: 5, page, per_page: 2, pages: page + 1 });
    });
    expect(await drain(new Users(transport).list({ per_page: 2 }))).toEqual(ids('user_', 0, 6));
    expect(requests).toHaveLength(3);
  });

  it('v1: users.list({ page: 2 }) answered with page 1 every time: two requests, page 1 once, no error', async () => {
    const { transport, requests } = bounded(() =>
      usersPageBody(ids('user_', 0, 2), { total: 4, page: 1, per_page: 2, pages: 2 }),
    );
    expect(await drain(new Users(transport).list({ page: 2, per_page: 2 }))).toEqual(['user_0', 'user_1']);
    expect(requests.map((request) => request.query)).toEqual([
      { page: 2, per_page: 2 },
      { page: 2, per_page: 2 },
    ]);
  });
});
