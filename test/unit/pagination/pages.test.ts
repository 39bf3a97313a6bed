import { Page, PagePromise, TelephonyError, ValidationError } from 'telephony-sdk';
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
    await expect(last.getNextPage()).rejects.toThrow(/last page/);
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

  it("SPEC's short list form (from and to as plain number strings) reads as parties", async () => {
    const { transport } = fakeTransport(() => {
      const body = recentCallsPagedBody(ids('call_', 0, 1), { total: 1, page: 1, per_page: 20, pages: 1 });
      Object.assign(body.data.calls[0] ?? {}, {
        from: '+15551230000',
        to: '+15557650000',
        status: 'completed',
      });
      return body;
    });
    const [call] = (await new Calls(transport).listRecent()).items;
    expect(call).toMatchObject({
      from: { number: '+15551230000' },
      to: { number: '+15557650000' },
      status: 'completed',
    });
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

describe('a service that ignores the paging parameter', () => {
  const drain = async (pages: AsyncIterable<unknown>) => {
    let items = 0;
    const error = await (async () => {
      for await (const _ of pages) items++;
    })().catch((e: unknown) => e);
    return { items, error };
  };

  it('v2 offset: an answer for another offset stops the loop with an error, after one repeat', async () => {
    const { transport, requests } = fakeTransport(() =>
      recentCallsBody(ids('call_', 0, 2), { total: 10, limit: 2, offset: 0, has_more: true }),
    );
    const { items, error } = await drain(new Calls(transport).listRecent({ limit: 2 }));
    expect(error).toBeInstanceOf(TelephonyError);
    expect((error as Error).message).toBe(
      'GET /v2/calls/recent: asked for offset 2, got offset 0; stopping, not looping',
    );
    expect([items, requests.length]).toEqual([2, 2]);
  });

  it('v2 page style: the next request carries page too, and page 1 again stops the loop', async () => {
    const { transport, requests } = fakeTransport(() =>
      recentCallsPagedBody(ids('call_', 0, 2), { total: 4, page: 1, per_page: 2, pages: 2 }),
    );
    const { items, error } = await drain(new Calls(transport).listRecent({ limit: 2 }));
    expect(requests[1]?.query).toMatchObject({ offset: 2, page: 2 });
    expect((error as Error).message).toMatch(/asked for page 2, got page 1/);
    expect([items, requests.length]).toEqual([2, 2]);
  });

  it('v1: page 1 answered to a request for page 2 stops the loop', async () => {
    const { transport, requests } = fakeTransport(() =>
      usersPageBody(ids('user_', 0, 2), { total: 4, page: 1, per_page: 2, pages: 2 }),
    );
    const { items, error } = await drain(new Users(transport).list({ per_page: 2 }));
    expect((error as Error).message).toBe(
      'GET /v1/users: asked for page 2, got page 1; stopping, not looping',
    );
    expect([items, requests.length]).toEqual([2, 2]);
  });
});
