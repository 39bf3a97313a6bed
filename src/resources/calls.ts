import * as z from 'zod/mini';
import { ValidationError } from '../core/errors.js';
import { runOperation } from '../core/operation.js';
import { listPages, offsetPages, type PagePromise } from '../core/pagination.js';
import { path } from '../core/path.js';
import { e164, intBetween, isoDate, openEnum } from '../core/schema.js';
import type { RequestOptions } from '../core/transport.js';
import { APIResource } from './resource.js';

/** Every call status SPEC.md names; newer values pass through as strings. */
export const CALL_STATUSES = [
  'initiating',
  'ringing',
  'answered',
  'missed',
  'voicemail',
  'completed',
  'transferring',
  'ended',
] as const;
const CallStatusSchema = openEnum(CALL_STATUSES);
export type CallStatus = z.infer<typeof CallStatusSchema>;

const DirectionSchema = openEnum(['inbound', 'outbound']);

/** One end of a call. `name` is optional: a bare number has none. */
export const CallPartySchema = z.looseObject({ number: z.string(), name: z.optional(z.string()) });
export type CallParty = z.infer<typeof CallPartySchema>;

/** A call in list form (`GET /v2/calls/recent`). */
export const CallSchema = z.looseObject({
  id: z.string(),
  direction: DirectionSchema,
  from: CallPartySchema,
  to: CallPartySchema,
  /** Seconds; 0 for a missed call. */
  duration: z.number(),
  status: CallStatusSchema,
  /** Address of the recording (download with `calls.downloadRecording`); `null` when none. */
  recording_url: z.nullable(z.string()),
  notes: z.optional(z.string()),
  tags: z.optional(z.array(z.string())),
  /** ISO 8601 UTC date-time. */
  timestamp: z.string(),
});
export type Call = z.infer<typeof CallSchema>;

/** A call in detail form (`GET /v2/calls/{call_id}`). */
export const CallDetailSchema = z.looseObject({
  ...CallSchema.shape,
  from: z.looseObject({ ...CallPartySchema.shape, contact_id: z.optional(z.string()) }),
  to: z.looseObject({ ...CallPartySchema.shape, user_id: z.optional(z.string()) }),
  ended_at: z.optional(z.nullable(z.string())),
  queue: z.optional(
    z.nullable(z.looseObject({ id: z.string(), name: z.string(), wait_time: z.optional(z.number()) })),
  ),
  transferred: z.optional(z.boolean()),
  /** Element shape not documented. */
  transfer_history: z.optional(z.array(z.unknown())),
  /** Free-form data given at creation, returned as sent. */
  custom_data: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
});
export type CallDetail = z.infer<typeof CallDetailSchema>;

/** The call as returned by `POST /v2/calls` (status `initiating`). */
export const CreatedCallSchema = z.looseObject({
  id: z.string(),
  status: CallStatusSchema,
  direction: z.optional(DirectionSchema),
  from: z.optional(CallPartySchema),
  to: z.optional(CallPartySchema),
  timestamp: z.optional(z.string()),
  custom_data: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
});
export type CreatedCall = z.infer<typeof CreatedCallSchema>;

/** Answer of `DELETE /v2/calls/{call_id}`. */
export const EndedCallSchema = z.looseObject({
  id: z.string(),
  status: CallStatusSchema,
  ended_at: z.string(),
});
export type EndedCall = z.infer<typeof EndedCallSchema>;

/** Answer of `POST /v2/calls/{call_id}/transfer`. */
export const TransferredCallSchema = z.looseObject({
  id: z.string(),
  status: CallStatusSchema,
  transfer_to: z.string(),
  transfer_type: openEnum(['blind', 'attended']),
});
export type TransferredCall = z.infer<typeof TransferredCallSchema>;

/** Query of `GET /v2/calls/recent`. Unknown keys are refused (a typo would silently not filter). */
export const ListRecentCallsParamsSchema = z.strictObject({
  /** 1–100, default 20. */
  limit: z.optional(intBetween(1, 100)),
  /** Calls skipped. */
  offset: z.optional(intBetween(0)),
  direction: z.optional(z.enum(['inbound', 'outbound', 'all'])),
  status: z.optional(z.enum(['answered', 'missed', 'voicemail', 'all'])),
  /** Start of the period. */
  from: z.optional(isoDate()),
  /** End of the period. */
  to: z.optional(isoDate()),
  /** Administrators only. */
  user_id: z.optional(z.string()),
  /** Fields to return (format not documented by the service). */
  fields: z.optional(z.string()),
});
export type ListRecentCallsParams = z.input<typeof ListRecentCallsParamsSchema>;

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
  /** Called when the call status changes. */
  callback_url: z.optional(z.string()),
  /** Attached to the call, returned as sent. */
  custom_data: z.optional(z.record(z.string(), z.unknown())),
});
export type CreateCallParams = z.input<typeof CreateCallParamsSchema>;

/** Body of `POST /v2/calls/{call_id}/transfer`. */
export const TransferCallParamsSchema = z.strictObject({
  /** Phone number or user id. */
  to: z.string().check(z.minLength(1, { error: 'must be a phone number or a user id' })),
  /** `blind` (default, immediate) or `attended`. */
  type: z.optional(z.enum(['blind', 'attended'])),
  /** Called when the transfer is finished. */
  callback_url: z.optional(z.string()),
});
export type TransferCallParams = z.input<typeof TransferCallParamsSchema>;

const OneCall = <Schema extends z.core.$ZodType>(call: Schema) => z.looseObject({ call });
const DetailData = OneCall(CallDetailSchema);
const CreatedData = OneCall(CreatedCallSchema);
const EndedData = OneCall(EndedCallSchema);
const TransferredData = OneCall(TransferredCallSchema);

/** Calls (v2): list, read, place, end and transfer calls, and download recordings. */
export class Calls extends APIResource {
  /** Recent calls, newest first, 20 per page unless `limit` says otherwise. Iterate with `for await` for every page. */
  listRecent(params: ListRecentCallsParams = {}, options?: RequestOptions): PagePromise<Call> {
    return listPages(
      this.transport,
      {
        method: 'GET',
        path: '/v2/calls/recent',
        query: { schema: ListRecentCallsParamsSchema, value: params },
        items: 'calls',
        itemSchema: CallSchema,
        pagination: offsetPages,
      },
      options,
    );
  }

  /** One call in detail form (queue, transfer history, custom data). */
  async get(callId: string, options?: RequestOptions): Promise<CallDetail> {
    const spec = { method: 'GET', path: path`/v2/calls/${callId}`, data: DetailData } as const;
    return runOperation(this.transport, { ...spec, result: (data) => data.call }, options);
  }

  /**
   * Places a call. Returns at once with status `initiating`; later changes arrive by webhook or
   * `callback_url`. Never retried after a 5xx or a timeout, which could ring twice.
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

  /** Ends a call in progress. */
  async end(callId: string, options?: RequestOptions): Promise<EndedCall> {
    const spec = { method: 'DELETE', path: path`/v2/calls/${callId}`, data: EndedData } as const;
    return runOperation(this.transport, { ...spec, result: (data) => data.call }, options);
  }

  /** Transfers a call in progress to a number or a user (`blind` unless `type: 'attended'`). */
  async transfer(
    callId: string,
    params: TransferCallParams,
    options?: RequestOptions,
  ): Promise<TransferredCall> {
    return runOperation(
      this.transport,
      {
        method: 'POST',
        path: path`/v2/calls/${callId}/transfer`,
        body: { schema: TransferCallParamsSchema, value: params },
        data: TransferredData,
        result: (data) => data.call,
      },
      options,
    );
  }

  /**
   * Downloads a recording with the client's auth. Takes a call (its `recording_url`) or the URL itself;
   * resolves to the `Response`, whose `body` is a stream.
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
