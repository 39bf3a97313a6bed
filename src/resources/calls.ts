import * as z from 'zod/mini';
import { ValidationError } from '../core/errors.js';
import { runOperation } from '../core/operation.js';
import { path } from '../core/request/path.js';
import type { APIPromise } from '../core/response/api-promise.js';
import { listPages, type PagePromise } from '../core/response/page.js';
import { type OffsetPagination, offsetPages } from '../core/response/pagination.js';
import type { RequestOptions } from '../core/types.js';
import {
  type Call,
  type CallDetail,
  CallDetailSchema,
  CallSchema,
  type CreateCallParams,
  CreateCallParamsSchema,
  type CreatedCall,
  CreatedCallSchema,
  type EndedCall,
  EndedCallSchema,
  type FullCall,
  type ListRecentCallsParams,
  ListRecentCallsParamsSchema,
  type ShortCall,
  ShortCallSchema,
  type TransferCallParams,
  TransferCallParamsSchema,
  type TransferredCall,
  TransferredCallSchema,
} from './calls-schemas.js';
import { APIResource } from './resource.js';

/**
 * SPEC.md's short list form gives `from` and `to` as plain number strings: they are read as parties
 * (`{ number }`), so `call.from.number` holds for every list answer. True for a call in that form,
 * which is then checked as a {@link ShortCall}; any other call is checked as a {@link FullCall}.
 */
function shortForm(call: unknown): boolean {
  const fields = call as Record<string, unknown> | null;
  // Both ends spelled out, not a loop over ['from', 'to']: this runs for each call of every page.
  let short = false;
  if (typeof fields?.from === 'string') {
    fields.from = { number: fields.from };
    short = true;
  }
  if (typeof fields?.to === 'string') {
    fields.to = { number: fields.to };
    short = true;
  }
  return short;
}

const DetailData = z.looseObject({ call: CallDetailSchema });
const CreatedData = z.looseObject({ call: CreatedCallSchema });
const EndedData = z.looseObject({ call: EndedCallSchema });
const TransferredData = z.looseObject({ call: TransferredCallSchema });

/** Calls (v2): list, read, place, end and transfer calls, and download recordings. */
export class Calls extends APIResource {
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
        variant: { schema: ShortCallSchema, rewrite: shortForm },
        pagination: offsetPages,
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
   * Places a call. Returns at once with status `initiating`; later changes arrive by webhook or
   * `callback_url`. Never retried after a 5xx or a timeout, which could ring twice (only after a
   * 429 or a connection that never opened).
   *
   * @throws {ValidationError} (a rejection, nothing sent) when `to` or `from` is not E.164, or a field is unknown.
   */
  create(params: CreateCallParams, options?: RequestOptions): APIPromise<CreatedCall> {
    return runOperation(
      this.transport,
      () => ({
        method: 'POST',
        path: '/v2/calls',
        body: { schema: CreateCallParamsSchema, value: params },
        data: CreatedData,
        result: (data) => data.call,
      }),
      options,
    );
  }

  /**
   * Ends a call in progress; its status becomes `ended`.
   * @throws {NotFoundError} when no call has this id.
   */
  end(callId: string, options?: RequestOptions): APIPromise<EndedCall> {
    return runOperation(
      this.transport,
      () => ({
        method: 'DELETE',
        path: path('calls.end')`/v2/calls/${{ callId }}`,
        data: EndedData,
        // An earlier attempt ended the call and its answer was lost: when, is not known.
        ifGone: { call: { id: callId, status: 'ended', ended_at: null } },
        result: (data) => data.call,
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
   * resolves to the `Response`, whose `body` is a stream. An absolute URL is accepted only on the
   * origin of the configured base URL, so the credential never goes to another host.
   *
   * @throws {ValidationError} (a rejection) when the call has no recording (`recording_url` is `null`).
   *
   * @example
   * ```ts
   * const call = await client.calls.get('call_123');
   * if (call.recording_url) {
   *   const response = await client.calls.downloadRecording(call);
   *   await writeFile('call_123.recording', Buffer.from(await response.arrayBuffer()));
   * }
   * ```
   */
  async downloadRecording(
    callOrRecordingUrl: Pick<Call, 'recording_url'> | string,
    options?: RequestOptions,
  ): Promise<Response> {
    const url =
      typeof callOrRecordingUrl === 'string' ? callOrRecordingUrl : callOrRecordingUrl.recording_url;
    if (typeof url !== 'string' || url === '') {
      const message = 'is null: the call has no recording';
      throw new ValidationError(`recording_url ${message}`, [{ path: 'recording_url', message }]);
    }
    return this.transport.download({ method: 'GET', path: url }, options);
  }
}
