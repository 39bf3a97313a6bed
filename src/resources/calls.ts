import * as z from 'zod/mini';
import { ValidationError } from '../core/errors.js';
import { runOperation } from '../core/operation.js';
import { path } from '../core/request/path.js';
import {
  listPages,
  type OffsetPagination,
  offsetPages,
  type PagePromise,
} from '../core/response/pagination.js';
import type { RequestOptions } from '../core/types.js';
import { CALL_STATUSES, type CallStatus } from '../shared/call-status.js';
import { anyObject, e164, httpUrl, intBetween, isoDate, notEmpty, oneOf, openEnum } from './fields.js';
import { APIResource } from './resource.js';

const CallStatusSchema = openEnum(CALL_STATUSES);

export type { CallStatus };

const DirectionSchema = openEnum(['inbound', 'outbound']);

/** One end of a call. `name` is optional: a bare number has none. */
export const CallPartySchema = z.looseObject({
  /** Phone number, E.164 (`+14155550123`). */
  number: z.string(),
  /** Display name; absent for a bare number. */
  name: z.optional(z.string()),
});
/**
 * One end of a call (`from` or `to`): a number and, when known, a name.
 */
export interface CallParty extends z.infer<typeof CallPartySchema> {}

/** A call in list form (`GET /v2/calls/recent`). */
export const CallSchema = z.looseObject({
  /** Call id, for `calls.get`, `end` and `transfer`. */
  id: z.string(),
  /** `inbound` or `outbound` (open: other values pass through). */
  direction: DirectionSchema,
  /** The caller. */
  from: CallPartySchema,
  /** The called party. */
  to: CallPartySchema,
  /** Talk time in **seconds**; 0 for a missed call. */
  duration: z.number(),
  /** Current status (`answered`, `missed`, `voicemail`, …). */
  status: CallStatusSchema,
  /** Address of the recording (download with `calls.downloadRecording`); `null` when none. */
  recording_url: z.nullable(z.string()),
  /** Free-text notes on the call. */
  notes: z.optional(z.string()),
  /** Labels attached to the call. */
  tags: z.optional(z.array(z.string())),
  /** Start of the call, ISO 8601 UTC date-time. */
  timestamp: z.string(),
});
/**
 * A call in list form, as `calls.listRecent` yields it. Extra fields the service adds are kept.
 */
export interface Call extends z.infer<typeof CallSchema> {}

/**
 * SPEC.md's short list form gives `from` and `to` as plain number strings: they are read as parties
 * (`{ number }`), so `call.from.number` holds for every list answer.
 */
function shortFormParties(calls: unknown): void {
  if (Array.isArray(calls))
    for (const call of calls as Array<Record<string, unknown> | null>)
      for (const end of ['from', 'to'])
        if (typeof call?.[end] === 'string') call[end] = { number: call[end] };
}

/** A call in detail form (`GET /v2/calls/{call_id}`). */
export const CallDetailSchema = z.looseObject({
  ...CallSchema.shape,
  /** The caller, with the matching contact when there is one. */
  from: z.looseObject({
    ...CallPartySchema.shape,
    /** The caller's contact id, when the number matches a contact. */
    contact_id: z.optional(z.string()),
  }),
  /** The called party, with the user the call was for. */
  to: z.looseObject({
    ...CallPartySchema.shape,
    /** The user the call was for. */
    user_id: z.optional(z.string()),
  }),
  /** End of the call, ISO 8601 UTC; absent or `null` while it goes on. */
  ended_at: z.optional(z.nullable(z.string())),
  /** The queue the call waited in; absent or `null` when none. */
  queue: z.optional(
    z.nullable(
      z.looseObject({
        /** Queue id. */
        id: z.string(),
        /** Queue name. */
        name: z.string(),
        /** Time waited in the queue (an integer; the service does not document its unit). */
        wait_time: z.optional(z.number()),
      }),
    ),
  ),
  /** `true` when the call was transferred. */
  transferred: z.optional(z.boolean()),
  /** Element shape not documented. */
  transfer_history: z.optional(z.array(z.unknown())),
  /** Free-form data given at creation, returned as sent. */
  custom_data: z.optional(z.nullable(anyObject())),
});
/**
 * A call in detail form, as `calls.get` returns it: the list fields plus contact, user, end time,
 * queue, transfer history and custom data.
 */
export interface CallDetail extends z.infer<typeof CallDetailSchema> {}

/** The call as returned by `POST /v2/calls` (status `initiating`). */
export const CreatedCallSchema = z.looseObject({
  /** Id of the new call. */
  id: z.string(),
  /** `initiating`; later changes arrive by webhook or `callback_url`. */
  status: CallStatusSchema,
  /** `outbound` for a placed call. */
  direction: DirectionSchema,
  /** The caller: the account number used, and its name. */
  from: CallPartySchema,
  /** The called party: `{ number, name }` (SPEC.md's creation form), not the `to` string that was sent. */
  to: CallPartySchema,
  /** Creation time, ISO 8601 UTC. */
  timestamp: z.string(),
  /** The `custom_data` given, returned as sent. */
  custom_data: z.optional(z.nullable(anyObject())),
});
/**
 * The call `calls.create` returns, in status `initiating`: SPEC.md's creation form, `id`, `status`,
 * `direction`, `from` and `to` as `{ number, name }`, `timestamp` and `custom_data`.
 */
export interface CreatedCall extends z.infer<typeof CreatedCallSchema> {}

/** Answer of `DELETE /v2/calls/{call_id}`. */
export const EndedCallSchema = z.looseObject({
  /** The call's id. */
  id: z.string(),
  /** `ended`. */
  status: CallStatusSchema,
  /** End time, ISO 8601 UTC. */
  ended_at: z.string(),
});
/**
 * What `calls.end` returns: `{ id, status, ended_at }`.
 */
export interface EndedCall extends z.infer<typeof EndedCallSchema> {}

/** Answer of `POST /v2/calls/{call_id}/transfer`. */
export const TransferredCallSchema = z.looseObject({
  /** The call's id. */
  id: z.string(),
  /** `transferring`. */
  status: CallStatusSchema,
  /** The number or user id the call goes to. */
  transfer_to: z.string(),
  /** `blind` or `attended`. */
  transfer_type: openEnum(['blind', 'attended']),
});
/**
 * What `calls.transfer` returns: `{ id, status, transfer_to, transfer_type }`.
 */
export interface TransferredCall extends z.infer<typeof TransferredCallSchema> {}

/** Query of `GET /v2/calls/recent`. Unknown keys are refused (a typo would silently not filter). */
export const ListRecentCallsParamsSchema = z.strictObject({
  /** 1–100, default 20. */
  limit: z.optional(intBetween(1, 100)),
  /** Calls skipped, default 0. `for await` advances it for you. */
  offset: z.optional(intBetween(0)),
  /** Only `inbound` or `outbound` calls; default `all`. */
  direction: z.optional(oneOf(['inbound', 'outbound', 'all'])),
  /** Only `answered`, `missed` or `voicemail` calls; default `all`. */
  status: z.optional(oneOf(['answered', 'missed', 'voicemail', 'all'])),
  /** Start of the period: ISO 8601 string (`2024-01-31`, `2024-01-31T09:00:00Z`) or `Date`. */
  from: z.optional(isoDate()),
  /** End of the period: ISO 8601 string or `Date`. */
  to: z.optional(isoDate()),
  /** Administrators only. */
  user_id: z.optional(z.string()),
});
/**
 * Filters of `calls.listRecent`; all optional. Unknown keys reject with `ValidationError`.
 */
export interface ListRecentCallsParams extends z.input<typeof ListRecentCallsParamsSchema> {}

/** Body of `POST /v2/calls`. */
export const CreateCallParamsSchema = z.strictObject({
  /** E.164 number to call. */
  to: e164(),
  /** Caller number of the account, E.164. */
  from: z.optional(e164()),
  /** Caller user; administrators only. */
  user_id: z.optional(z.string()),
  /** Default false. */
  record: z.optional(z.boolean()),
  /** Called when the call status changes; an `http:` or `https:` URL. */
  callback_url: z.optional(httpUrl()),
  /** Attached to the call, returned as sent. */
  custom_data: z.optional(anyObject()),
});
/**
 * What `calls.create` needs: at least `to` (E.164). Invalid values reject with `ValidationError` before any request.
 */
export interface CreateCallParams extends z.input<typeof CreateCallParamsSchema> {}

/** Body of `POST /v2/calls/{call_id}/transfer`. */
export const TransferCallParamsSchema = z.strictObject({
  /** Phone number or user id. */
  to: z.string().check(notEmpty('must be a phone number or a user id')),
  /** `blind` (default, immediate) or `attended`. */
  type: z.optional(oneOf(['blind', 'attended'])),
  /** Called when the transfer is finished; an `http:` or `https:` URL. */
  callback_url: z.optional(httpUrl()),
});
/**
 * What `calls.transfer` needs: `to` (number or user id) and optionally `type` and `callback_url`.
 */
export interface TransferCallParams extends z.input<typeof TransferCallParamsSchema> {}

const OneCall = <Schema extends z.core.$ZodType>(call: Schema) => z.looseObject({ call });
const DetailData = OneCall(CallDetailSchema);
const CreatedData = OneCall(CreatedCallSchema);
const EndedData = OneCall(EndedCallSchema);
const TransferredData = OneCall(TransferredCallSchema);

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
        pagination: offsetPages,
        normalize: shortFormParties,
      },
      options,
    );
  }

  /**
   * One call in detail form (contact, user, queue, transfer history, custom data).
   * @throws {NotFoundError} when no call has this id.
   */
  async get(callId: string, options?: RequestOptions): Promise<CallDetail> {
    const spec = {
      method: 'GET',
      path: path('calls.get')`/v2/calls/${{ callId }}`,
      data: DetailData,
    } as const;
    return runOperation(this.transport, { ...spec, result: (data) => data.call }, options);
  }

  /**
   * Places a call. Returns at once with status `initiating`; later changes arrive by webhook or
   * `callback_url`. Never retried after a 5xx or a timeout, which could ring twice (only after a
   * 429 or a connection that never opened).
   *
   * @throws {ValidationError} (a rejection, nothing sent) when `to` or `from` is not E.164, or a field is unknown.
   */
  async create(params: CreateCallParams, options?: RequestOptions): Promise<CreatedCall> {
    return runOperation(
      this.transport,
      {
        method: 'POST',
        path: '/v2/calls',
        body: { schema: CreateCallParamsSchema, value: params },
        data: CreatedData,
        result: (data) => data.call,
      },
      options,
    );
  }

  /**
   * Ends a call in progress; its status becomes `ended`.
   * @throws {NotFoundError} when no call has this id.
   */
  async end(callId: string, options?: RequestOptions): Promise<EndedCall> {
    const spec = {
      method: 'DELETE',
      path: path('calls.end')`/v2/calls/${{ callId }}`,
      data: EndedData,
    } as const;
    return runOperation(this.transport, { ...spec, result: (data) => data.call }, options);
  }

  /**
   * Transfers a call in progress to a number or a user (`blind` unless `type: 'attended'`); its status
   * becomes `transferring`. Never retried after a 5xx or a timeout.
   * @throws {NotFoundError} when no call has this id.
   */
  async transfer(
    callId: string,
    params: TransferCallParams,
    options?: RequestOptions,
  ): Promise<TransferredCall> {
    return runOperation(
      this.transport,
      {
        method: 'POST',
        path: path('calls.transfer')`/v2/calls/${{ callId }}/transfer`,
        body: { schema: TransferCallParamsSchema, value: params },
        data: TransferredData,
        result: (data) => data.call,
      },
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
      throw new ValidationError('This call has no recording (recording_url is null)', [
        { path: 'recording_url', message: 'is null: the call has no recording' },
      ]);
    }
    return this.transport.download({ method: 'GET', path: url }, options);
  }
}
