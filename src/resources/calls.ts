import * as z from 'zod/mini';
import { type Clock, systemClock } from '../core/clock.js';
import { TelephonyError, ValidationError } from '../core/errors.js';
import { runOperation } from '../core/operation.js';
import { validateParams } from '../core/request/params.js';
import { path } from '../core/request/path.js';
import { APIPromise, type WithResponse } from '../core/response/api-promise.js';
import { listPages, type PagePromise } from '../core/response/page.js';
import { type OffsetPagination, offsetPages } from '../core/response/pagination.js';
import { type RequestOptions, type Transport, withTransport } from '../core/types.js';
import type { CallStatus } from '../shared/call-status.js';
import type { WebhookReceiver } from '../webhooks/receiver.js';
import {
  type Call,
  type CallDetail,
  CallDetailSchema,
  CallSchema,
  CreateCallOptionsSchema,
  type CreateCallParams,
  CreateCallParamsSchema,
  type CreatedCall,
  CreatedCallSchema,
  type EndedCall,
  EndedCallSchema,
  FindByKeySchema,
  keyedCreateCallSchema,
  type ListRecentCallsParams,
  ListRecentCallsParamsSchema,
  type TransferCallParams,
  TransferCallParamsSchema,
  type TransferredCall,
  TransferredCallSchema,
  WaitForCallSchema,
} from './calls-schemas.js';
import { APIResource } from './resource.js';

/** What `calls.waitFor` waits for: a status, any of several statuses, or a test on the call's detail. */
export type CallCondition = CallStatus | readonly CallStatus[] | ((call: CallDetail) => boolean);

/** Options of `calls.waitFor`. */
export interface WaitForCallOptions {
  /** Stops the wait (and a read in flight); it rejects with `APIUserAbortError`. */
  signal?: AbortSignal | undefined;
  /** Milliseconds on the client's clock before the wait rejects with `WaitTimeoutError` (code `wait_timeout`); default none. */
  timeout?: number | undefined;
  /**
   * Milliseconds between reads: the first wait, doubled after each read up to `max`. Default 1 000 up to
   * 10 000; with a `receiver`, 10 000 up to 60 000 (its events do the waking).
   */
  pollInterval?:
    | {
        /** Milliseconds before the first read again. */
        initial?: number | undefined;
        /** The longest wait between reads, in milliseconds. */
        max?: number | undefined;
      }
    | undefined;
  /**
   * A `WebhookReceiver` the call's events arrive at (a webhook or the call's `callback_url`): each
   * verified event whose `data.call.id` is this call makes the wait read the call again at once. Its
   * listener is removed when the wait settles.
   */
  receiver?: Pick<WebhookReceiver, 'on' | 'off'> | undefined;
}

/** Request options of `calls.create`. */
export interface CreateCallOptions extends RequestOptions {
  /**
   * Your id for this call (1–255 printable characters: a job id, a ticket number), stored in its
   * `custom_data` as `telephony_sdk_idempotency_key`. With it, a create whose answer was lost looks the
   * call up before rejecting, and `calls.findByIdempotencyKey` finds it later.
   */
  idempotencyKey?: string | undefined;
}

/** Options of `calls.findByIdempotencyKey`. */
export interface FindByIdempotencyKeyOptions {
  /** Oldest start time looked at: an ISO 8601 string or a `Date`. Default 15 minutes ago (client clock). */
  since?: string | Date | undefined;
  /** Stops the look-up; it rejects with `APIUserAbortError`. */
  signal?: AbortSignal | undefined;
}

/** How far back `findByIdempotencyKey` looks by default. */
const LOOKBACK_MS = 15 * 60_000;

/** How far before a create its look-up starts: the service's clock may be a little behind the client's. */
const CLOCK_MARGIN_MS = 60_000;

const DetailData = z.looseObject({ call: CallDetailSchema });
const CreatedData = z.looseObject({ call: CreatedCallSchema });
/**
 * `call: null` is what a retried delete resolves with when it finds the call gone (the transport's
 * `ifGone`; the service never sends it): the call is then read back for its `ended_at`.
 */
const EndedData = z.looseObject({ call: z.nullable(EndedCallSchema) });
const GONE = { call: null };
/** The read-back: the call's detail, which must carry `ended_at` now that the call has ended. */
const ReadBackData = z.looseObject({ call: EndedCallSchema });
const TransferredData = z.looseObject({ call: TransferredCallSchema });

/** Calls (v2): list, read, place, end and transfer calls, and download recordings. */
export class Calls extends APIResource {
  readonly #clock: Clock;

  /** `clock`: the client's, on which `waitFor` paces its reads. */
  constructor(transport: ConstructorParameters<typeof APIResource>[0], clock: Clock = systemClock) {
    super(transport);
    this.#clock = clock;
  }

  /** This resource sending through `transport`, with the same clock. */
  override [withTransport](transport: Transport): this {
    // Through `this.constructor`, not the class's own name: a class body that names itself is renamed
    // `_Calls` by esbuild in the ESM builds, and the class's name is what `constructor.name` shows.
    const Resource = this.constructor as new (transport: Transport, clock: Clock) => this;
    return new Resource(transport, this.#clock);
  }

  /**
   * Recent calls, newest first, 20 per page unless `limit` says otherwise (max 100). Await it for one
   * {@link Page}; iterate it with `for await` for every call of every page, fetched one page at a time.
   *
   * @param params filters (`direction`, `status`, `from`, `to`, `user_id`) and paging (`limit`, `offset`).
   * @throws {ValidationError} (a rejection, nothing sent) when a param is invalid or unknown.
   *
   * @example
   * ```ts
   * for await (const call of client.calls.listRecent({ direction: 'inbound', status: 'missed' })) {
   *   console.log(call.id, call.from.number, call.timestamp);
   * }
   *
   * const page = await client.calls.listRecent({ limit: 50 });
   * console.log(page.items.length, page.pagination, page.hasNextPage());
   * ```
   */
  listRecent(
    params: ListRecentCallsParams = {},
    options?: RequestOptions,
  ): PagePromise<Call, OffsetPagination> {
    return listPages(
      this.transport,
      {
        method: 'GET',
        path: '/v2/calls/recent',
        query: { schema: ListRecentCallsParamsSchema, value: params },
        items: 'calls',
        itemSchema: CallSchema,
        pagination: offsetPages,
        growsAtFront: { id: (call) => call.id },
      },
      options,
    );
  }

  /**
   * One call in detail form (contact, user, queue, transfer history, custom data).
   * @throws {NotFoundError} when no call has this id.
   */
  get(callId: string, options?: RequestOptions): APIPromise<CallDetail> {
    return runOperation(
      this.transport,
      () => ({
        method: 'GET',
        path: path('calls.get')`/v2/calls/${{ callId }}`,
        data: DetailData,
        result: (data) => data.call,
      }),
      options,
    );
  }

  /**
   * Follows a call until it matches `until` (a status, any of several, or a predicate) and resolves with
   * its detail: reads `GET /v2/calls/{call_id}` at once, then again after a growing wait (1 s, 2 s, 4 s …
   * up to 10 s; each read paced like any call). Given a `receiver`, it reads again as soon as that
   * receiver verifies an event for the call, and polls rarely. `.withResponse()` gives the answer of the
   * read that matched. The polling loads by `import()` at the first call.
   *
   * @throws {ValidationError} (a rejection, nothing sent) when `until` or an option is invalid.
   * @throws {WaitTimeoutError} (code `wait_timeout`) when `timeout` ms pass first.
   * @throws {APIUserAbortError} when `signal` aborts.
   *
   * @example
   * ```ts
   * const call = await client.calls.create({ to: '+14155550123' });
   * const done = await client.calls.waitFor(call.id, FINAL_CALL_STATUSES, { timeout: 120_000 });
   * console.log(done.status, done.duration);
   * ```
   */
  waitFor(callId: string, until: CallCondition, options: WaitForCallOptions = {}): APIPromise<CallDetail> {
    return new APIPromise(this.#waitFor(callId, until, options));
  }

  async #waitFor(
    callId: string,
    until: CallCondition,
    options: WaitForCallOptions,
  ): Promise<WithResponse<CallDetail>> {
    validateParams(WaitForCallSchema, { ...options, until }, 'calls.waitFor');
    const { waitForCall } = await import('./calls-wait.js');
    return waitForCall(this, this.#clock, callId, until, options);
  }

  /**
   * Places a call. Returns at once with status `initiating`; later changes arrive by webhook or
   * `callback_url`. Never retried after a 5xx or a timeout, which could ring twice (only after a
   * 429 or a connection that never opened). Give an `idempotencyKey` to be able to find the call when
   * an answer is lost (`calls.findByIdempotencyKey`).
   *
   * @throws {ValidationError} (a rejection, nothing sent) when `to` or `from` is not E.164, a field is
   *   unknown, the key is not 1–255 printable characters, or `custom_data` holds `telephony_sdk_idempotency_key`.
   *
   * @example
   * ```ts
   * const call = await client.calls.create({ to: '+14155550123' }, { idempotencyKey: 'ticket-4711' });
   * ```
   */
  create(params: CreateCallParams, options: CreateCallOptions = {}): APIPromise<CreatedCall> {
    return new APIPromise(this.#create(params, options));
  }

  async #create(params: CreateCallParams, options: CreateCallOptions): Promise<WithResponse<CreatedCall>> {
    const { idempotencyKey, ...request } = options;
    validateParams(CreateCallOptionsSchema, options, 'calls.create');
    // Where a look-up starts: a minute before sending, for a service clock a little behind the client's.
    const since = new Date(this.#clock.now() - CLOCK_MARGIN_MS);
    try {
      return await runOperation(
        this.transport,
        () => ({
          method: 'POST',
          path: '/v2/calls',
          body: {
            schema:
              idempotencyKey === undefined ? CreateCallParamsSchema : keyedCreateCallSchema(idempotencyKey),
            value: params,
          },
          data: CreatedData,
          result: (data) => data.call,
        }),
        request,
      ).withResponse();
    } catch (error) {
      if (!(error instanceof TelephonyError) || error.outcome !== 'unknown') throw error;
      // The service may have placed the call: the key, if there is one, says whether it did.
      const { settleUnknownCreate } = await import('./calls-lookup.js');
      return settleUnknownCreate(this, error, idempotencyKey, since, request.signal, params.to);
    }
  }

  /**
   * The call placed with this `idempotencyKey` (see `calls.create`), in detail form, or `undefined` when
   * none was placed since `since` (default: 15 minutes ago). Walks the outbound calls of
   * `GET /v2/calls/recent` from `since`, newest first, and reads each one's detail until one holds the
   * key: one list request per 100 calls, one detail read per call, each paced like any call. Assumes a
   * placed call shows in the list within seconds. `.withResponse()` gives the answer of the read that
   * decided it: the matching detail's, or the last list page's. The look-up loads by `import()` at the
   * first call.
   *
   * @throws {ValidationError} (a rejection, nothing sent) when the key or `since` is invalid.
   * @throws {TelephonyError} when 50 details were read without finding the key and older calls remain:
   *   pass a later `since`.
   *
   * @example
   * ```ts
   * // A job that crashed after calls.create: was the call placed?
   * const placed = await client.calls.findByIdempotencyKey(job.id, { since: job.startedAt });
   * if (placed === undefined) await client.calls.create({ to: job.to }, { idempotencyKey: job.id });
   * ```
   */
  findByIdempotencyKey(
    key: string,
    options: FindByIdempotencyKeyOptions = {},
  ): APIPromise<CallDetail | undefined> {
    return new APIPromise(this.#findByIdempotencyKey(key, options));
  }

  async #findByIdempotencyKey(
    key: string,
    options: FindByIdempotencyKeyOptions,
  ): Promise<WithResponse<CallDetail | undefined>> {
    validateParams(FindByKeySchema, { ...options, key }, 'calls.findByIdempotencyKey');
    const since = options.since ?? new Date(this.#clock.now() - LOOKBACK_MS);
    const { findByIdempotencyKey } = await import('./calls-lookup.js');
    return findByIdempotencyKey(this, key, since, options.signal);
  }

  /**
   * Ends a call in progress; its status becomes `ended`. When an earlier attempt ended the call and
   * its answer was lost (a timeout, a reset, a 5xx), the retry finds the call gone: the SDK then reads
   * the call back (one `GET`) for its `ended_at`.
   * @throws {NotFoundError} when no call has this id.
   */
  end(callId: string, options?: RequestOptions): APIPromise<EndedCall> {
    return new APIPromise(this.#end(callId, options));
  }

  async #end(callId: string, options?: RequestOptions): Promise<WithResponse<EndedCall>> {
    const ended = await runOperation(
      this.transport,
      () => ({
        method: 'DELETE',
        path: path('calls.end')`/v2/calls/${{ callId }}`,
        data: EndedData,
        ifGone: GONE,
        result: (data) => data.call,
      }),
      options,
    ).withResponse();
    if (ended.data !== null) return { ...ended, data: ended.data };
    return this.#endedAt(callId, options).withResponse();
  }

  /** The end of a call a lost answer ended, read from its detail (which must carry `ended_at`). */
  #endedAt(callId: string, options?: RequestOptions): APIPromise<EndedCall> {
    return runOperation(
      this.transport,
      () => ({
        method: 'GET',
        path: path('calls.end')`/v2/calls/${{ callId }}`,
        data: ReadBackData,
        result: ({ call: { id, status, ended_at } }) => ({ id, status, ended_at }),
      }),
      options,
    );
  }

  /**
   * Transfers a call in progress to a number or a user (`blind` unless `type: 'attended'`); its status
   * becomes `transferring`. Never retried after a 5xx or a timeout.
   * @throws {NotFoundError} when no call has this id.
   */
  transfer(
    callId: string,
    params: TransferCallParams,
    options?: RequestOptions,
  ): APIPromise<TransferredCall> {
    return runOperation(
      this.transport,
      () => ({
        method: 'POST',
        path: path('calls.transfer')`/v2/calls/${{ callId }}/transfer`,
        body: { schema: TransferCallParamsSchema, value: params },
        data: TransferredData,
        result: (data) => data.call,
      }),
      options,
    );
  }

  /**
   * Downloads a recording with the client's auth. Takes a call (its `recording_url`) or the URL itself;
   * resolves to the `Response`, whose `body` is a stream, read only as you read it. An absolute URL is
   * accepted only on the origin of the configured base URL, so the credential never goes to another
   * host. `.withResponse()` gives that same `Response` as `data` and `response` (headers at hand, the
   * body still unread) with the call's `requestId`.
   *
   * @throws {ValidationError} (a rejection) when the call has no recording (`recording_url` is `null`).
   *
   * @example
   * ```ts
   * const call = await client.calls.get('call_123');
   * if (call.recording_url) {
   *   const { response, requestId } = await client.calls.downloadRecording(call).withResponse();
   *   console.log(requestId, response.headers.get('content-type'), response.headers.get('content-length'));
   *   await writeFile('call_123.recording', Buffer.from(await response.arrayBuffer()));
   * }
   * ```
   */
  downloadRecording(
    callOrRecordingUrl: Pick<Call, 'recording_url'> | string,
    options?: RequestOptions,
  ): APIPromise<Response> {
    const url =
      typeof callOrRecordingUrl === 'string' ? callOrRecordingUrl : callOrRecordingUrl.recording_url;
    if (typeof url !== 'string' || url === '') {
      const message = 'is null: the call has no recording';
      const refused = new ValidationError(`recording_url ${message}`, [{ path: 'recording_url', message }]);
      return new APIPromise(Promise.reject(refused));
    }
    return this.transport.download({ method: 'GET', path: url }, options);
  }
}
