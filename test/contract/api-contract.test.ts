/**
 * API.md, as types: every name and signature the public contract fixes, checked by the compiler
 * (`npm run typecheck` covers test/) and by vitest's expectTypeOf. A rename, a narrowed parameter
 * or a changed return type of anything API.md names fails here before it reaches a user.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  APIConnectionError,
  APIError,
  type APIPromise,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  type Call,
  type CallDetail,
  type CallStats,
  InternalServerError,
  NotFoundError,
  type NumberedPagination,
  type OffsetPagination,
  type Page,
  type PagePromise,
  PermissionDeniedError,
  RateLimitError,
  TelephonyClient,
  TelephonyError,
  type User,
  ValidationError,
} from 'telephony-sdk';
import * as webhooksEntry from 'telephony-sdk/webhooks';
import {
  signWebhook,
  verifyWebhook,
  type WebhookEvent,
  WebhookReceiver,
  WebhookVerificationError,
} from 'telephony-sdk/webhooks';
import { describe, expect, expectTypeOf, it } from 'vitest';

type Options = ConstructorParameters<typeof TelephonyClient>[0] & {};
type PerCall = {
  signal?: AbortSignal;
  timeout?: number;
  maxRetries?: number;
  headers?: Record<string, string>;
};

describe('API.md: Client', () => {
  it('takes the documented constructor options', () => {
    expectTypeOf<{
      baseUrl: string;
      baseUrlV1: string;
      clientId: string;
      clientSecret: string;
      scope: string;
      apiKey: string;
      maxRetries: number;
      timeout: number;
      fetch: typeof fetch;
    }>().toExtend<Options>();
    expectTypeOf<{ scope: string[] }>().toExtend<Options>();
    expectTypeOf<{ accessToken: string }>().toExtend<Options>();
    expectTypeOf<{ accessToken: () => Promise<string> }>().toExtend<Options>();
  });

  it('gives every resource method an optional last argument { signal, timeout, maxRetries, headers }', () => {
    type Client = TelephonyClient;
    expectTypeOf<PerCall>().toExtend<Parameters<Client['calls']['listRecent']>[1] & {}>();
    expectTypeOf<PerCall>().toExtend<Parameters<Client['calls']['get']>[1] & {}>();
    expectTypeOf<PerCall>().toExtend<Parameters<Client['calls']['create']>[1] & {}>();
    expectTypeOf<PerCall>().toExtend<Parameters<Client['calls']['end']>[1] & {}>();
    expectTypeOf<PerCall>().toExtend<Parameters<Client['calls']['transfer']>[2] & {}>();
    expectTypeOf<PerCall>().toExtend<Parameters<Client['stats']['calls']>[1] & {}>();
    expectTypeOf<PerCall>().toExtend<Parameters<Client['webhooks']['create']>[1] & {}>();
    expectTypeOf<PerCall>().toExtend<Parameters<Client['users']['list']>[1] & {}>();
    expectTypeOf<PerCall>().toExtend<Parameters<Client['users']['get']>[1] & {}>();
    expectTypeOf<PerCall>().toExtend<Parameters<Client['users']['create']>[1] & {}>();
    expectTypeOf<PerCall>().toExtend<Parameters<Client['users']['update']>[2] & {}>();
    expectTypeOf<PerCall>().toExtend<Parameters<Client['users']['delete']>[1] & {}>();
    expectTypeOf<PerCall>().toExtend<Parameters<Client['request']>[1] & {}>();
  });

  it('returns the unwrapped payloads of the resources table', () => {
    const client = new TelephonyClient({ baseUrl: 'http://127.0.0.1:9', accessToken: 'contract' });
    // API.md's PagePromise<Call>, with the list's own pagination object typed.
    expectTypeOf(client.calls.listRecent).returns.toEqualTypeOf<PagePromise<Call, OffsetPagination>>();
    expectTypeOf(client.calls.listRecent).returns.toExtend<PagePromise<Call>>();
    expectTypeOf(client.calls.get).returns.toEqualTypeOf<APIPromise<CallDetail>>();
    expectTypeOf(client.calls.create).returns.resolves.toHaveProperty('id');
    // `ended_at` is null when a retry found the call already ended by an attempt whose answer was lost.
    expectTypeOf(client.calls.end).returns.resolves.toExtend<{
      id: string;
      status: string;
      ended_at: string | null;
    }>();
    expectTypeOf(client.calls.transfer).returns.resolves.toExtend<{
      id: string;
      status: string;
      transfer_to: string;
      transfer_type: string;
    }>();
    expectTypeOf(client.calls.waitFor).returns.toEqualTypeOf<APIPromise<CallDetail>>();
    expectTypeOf(client.calls.findByIdempotencyKey).returns.toEqualTypeOf<
      APIPromise<CallDetail | undefined>
    >();
    expectTypeOf(client.stats.calls).returns.toEqualTypeOf<APIPromise<CallStats>>();
    expectTypeOf(client.webhooks.create).returns.resolves.toBeObject();
    expectTypeOf(client.users.list).returns.toEqualTypeOf<PagePromise<User, NumberedPagination>>();
    expectTypeOf(client.users.list).returns.toExtend<PagePromise<User>>();
    expectTypeOf<Page<Call, OffsetPagination>['pagination']['has_more']>().toEqualTypeOf<boolean>();
    expectTypeOf<Page<User, NumberedPagination>['pagination']['pages']>().toEqualTypeOf<number>();
    expectTypeOf(client.users.get).returns.toEqualTypeOf<APIPromise<User>>();
    expectTypeOf(client.users.create).returns.toEqualTypeOf<APIPromise<User>>();
    expectTypeOf(client.users.update).returns.toEqualTypeOf<APIPromise<User>>();
    expectTypeOf(client.users.delete).returns.resolves.toExtend<{ deleted: boolean; id: string }>();
    expectTypeOf(client.request).returns.toEqualTypeOf<APIPromise<unknown>>();
    expectTypeOf<{
      method: 'GET';
      path: string;
      query: { limit: number };
      body: unknown;
      headers: Record<string, string>;
    }>().toExtend<Parameters<typeof client.request>[0]>();
    // Wire names, not renamed: snake_case fields on what the methods take and give.
    expectTypeOf<User>().toHaveProperty('preferences');
    expectTypeOf<{ per_page: number }>().toExtend<Parameters<typeof client.users.list>[0] & {}>();
    expectTypeOf<{ user_id: string }>().toExtend<Parameters<typeof client.calls.listRecent>[0] & {}>();
    expect(
      Object.keys(client).filter((key) => ['calls', 'stats', 'webhooks', 'users'].includes(key)),
    ).toHaveLength(4);
  });

  it('emits request, response, retry and token events', () => {
    const client = new TelephonyClient({ baseUrl: 'http://127.0.0.1:9', accessToken: 'contract' });
    for (const name of ['request', 'response', 'retry', 'token'] as const)
      expect(client.on(name, () => {})).toBe(client);
    expectTypeOf(client.on).parameter(0).toExtend<string | symbol>();
    expectTypeOf<'request' | 'response' | 'retry' | 'token'>().toExtend<Parameters<typeof client.on>[0]>();
  });
});

describe('API.md: Pagination', () => {
  it('PagePromise<T> is a Promise<Page<T>> and an AsyncIterable<T>; Page has items, pagination, hasNextPage, getNextPage', () => {
    expectTypeOf<PagePromise<Call>>().toExtend<Promise<Page<Call>>>();
    expectTypeOf<PagePromise<Call>>().toExtend<AsyncIterable<Call>>();
    expectTypeOf<Page<Call>['items']>().toEqualTypeOf<Call[]>();
    expectTypeOf<Page<Call>>().toHaveProperty('pagination');
    expectTypeOf<Page<Call>['hasNextPage']>().returns.toEqualTypeOf<boolean>();
    expectTypeOf<Page<Call>['getNextPage']>().returns.toExtend<Promise<Page<Call>>>();
  });
});

describe('API.md: Errors', () => {
  it('every error class extends TelephonyError with the documented fields', () => {
    for (const ErrorClass of [
      APIError,
      BadRequestError,
      AuthenticationError,
      PermissionDeniedError,
      NotFoundError,
      RateLimitError,
      InternalServerError,
      APIConnectionError,
      APITimeoutError,
      APIUserAbortError,
      ValidationError,
      WebhookVerificationError,
    ])
      expect(ErrorClass.prototype).toBeInstanceOf(TelephonyError);
    expect(APITimeoutError.prototype).toBeInstanceOf(APIConnectionError);
    for (const Status of [BadRequestError, AuthenticationError, PermissionDeniedError, NotFoundError])
      expect(Status.prototype).toBeInstanceOf(APIError);
    expectTypeOf<APIError>().toExtend<{
      status: number;
      code: string;
      message: string;
      headers: Record<string, string>;
      body: unknown;
      apiVersion: 'v1' | 'v2';
    }>();
    expectTypeOf<RateLimitError['retryAfter']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ValidationError['issues']>().toExtend<{ path: string; message: string }[]>();
    expectTypeOf<
      'missing_header' | 'malformed_header' | 'timestamp_out_of_tolerance' | 'signature_mismatch'
    >().toExtend<WebhookVerificationError['reason']>();
    expectTypeOf<WebhookVerificationError['status']>().toExtend<number>();
  });
});

describe('API.md: Webhooks', () => {
  it('verifyWebhook, signWebhook and WebhookReceiver have the documented shapes', () => {
    expectTypeOf(verifyWebhook).toBeCallableWith('{}', 't=1,v1=ab', 'whsec', { tolerance: 300 });
    expectTypeOf(verifyWebhook).toBeCallableWith(new Uint8Array(), null, ['old', 'new'], { now: 1 });
    expectTypeOf(verifyWebhook).returns.toEqualTypeOf<Promise<WebhookEvent>>();
    expectTypeOf(signWebhook).toBeCallableWith('{}', 'whsec', { timestamp: 1 });
    expectTypeOf(signWebhook).returns.toEqualTypeOf<Promise<string>>();
    expectTypeOf<WebhookEvent['type']>().toExtend<string>();

    const receiver = new WebhookReceiver({ secret: 'whsec' });
    expectTypeOf(receiver.handle).toBeCallableWith({ body: '{}', headers: new Headers() });
    expectTypeOf(receiver.handle).toBeCallableWith({
      body: new Uint8Array(),
      headers: { 'Service-Signature': 't=1,v1=ab' },
    });
    expectTypeOf(receiver.handle).returns.resolves.toHaveProperty('status');
    expectTypeOf(receiver.fetchHandler).toEqualTypeOf<(request: Request) => Promise<Response>>();
    expectTypeOf(receiver.nodeHandler).toBeCallableWith({} as IncomingMessage, {} as ServerResponse);
    expectTypeOf(receiver.nodeHandler).returns.toBeVoid();
    receiver.on('call.incoming', async (event) => {
      expectTypeOf(event.type).toEqualTypeOf<'call.incoming'>();
    });
  });

  it('telephony-sdk/webhooks exports exactly what a receiver needs (and no HTTP client)', () => {
    expect(Object.keys(webhooksEntry)).toEqual(
      expect.arrayContaining([
        'verifyWebhook',
        'signWebhook',
        'WebhookReceiver',
        'WebhookVerificationError',
        'TelephonyError',
      ]),
    );
    expect(Object.keys(webhooksEntry)).not.toContain('TelephonyClient');
  });
});
