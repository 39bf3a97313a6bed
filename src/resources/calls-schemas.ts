/**
 * What the calls endpoints (v2) take and return: zod schemas with SPEC.md's wire names, and the types
 * inferred from them. `Calls` (calls.ts) describes the requests.
 */
import * as z from 'zod/mini';
import type { CALL_STATUSES, CallStatus } from '../shared/call-status.js';
import {
  anyObject,
  e164,
  httpUrl,
  intBetween,
  isoDate,
  jsonObject,
  notEmpty,
  oneOf,
  openEnum,
} from './fields.js';

const CallStatusSchema = openEnum<(typeof CALL_STATUSES)[number]>();

export type { CallStatus };

const DirectionSchema = openEnum<'inbound' | 'outbound'>();

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

/** What both list forms of a call (full and short) hold, with the same types. */
const callFields = {
  /** Call id, for `calls.get`, `end` and `transfer`. */
  id: z.string(),
  /** The caller (in the short form `{ number }`: it sends the number alone). */
  from: CallPartySchema,
  /** The called party (in the short form `{ number }`). */
  to: CallPartySchema,
  /** Current status (`answered`, `missed`, `voicemail`, …). */
  status: CallStatusSchema,
  /** Free-text notes on the call. */
  notes: z.optional(z.string()),
  /** Labels attached to the call. */
  tags: z.optional(z.array(z.string())),
};

/** A call in SPEC.md's list form (`GET /v2/calls/recent`), every field it lists. */
export const CallSchema = z.looseObject({
  ...callFields,
  /** `inbound` or `outbound` (open: other values pass through). */
  direction: DirectionSchema,
  /** Talk time in **seconds**; 0 for a missed call. */
  duration: z.number(),
  /** Address of the recording (download with `calls.downloadRecording`); `null` when none. */
  recording_url: z.nullable(z.string()),
  /** Start of the call, ISO 8601 UTC date-time. */
  timestamp: z.string(),
});
/**
 * A call in SPEC.md's list form, with every field it lists. Extra fields the service adds are kept.
 */
export interface FullCall extends z.infer<typeof CallSchema> {}

/**
 * A call in SPEC.md's short list form, which a v2 list may use: `from` and `to` come as plain number
 * strings (read as `{ number }`) and only `id` and `status` beside them are sure.
 */
export const ShortCallSchema = z.looseObject({
  ...callFields,
  /** `inbound` or `outbound`, when sent. */
  direction: z.optional(DirectionSchema),
  /** Talk time in **seconds**, when sent. */
  duration: z.optional(z.number()),
  /** Address of the recording, `null` when none; absent when not sent. */
  recording_url: z.optional(z.nullable(z.string())),
  /** Start of the call, ISO 8601 UTC, when sent. */
  timestamp: z.optional(z.string()),
});
/**
 * A call in SPEC.md's short list form: `id`, `from`, `to` and `status`; the list form's other fields
 * only when the service sent them (with the list form's types).
 */
export interface ShortCall extends z.infer<typeof ShortCallSchema> {}

/**
 * A call as `calls.listRecent` yields it: the list form ({@link FullCall}), or SPEC.md's short form
 * ({@link ShortCall}), whose `direction`, `duration`, `recording_url`, `notes`, `tags` and
 * `timestamp` may be absent. `id`, `from.number`, `to.number` and `status` are always there.
 */
export type Call = FullCall | ShortCall;

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
  /**
   * End time, ISO 8601 UTC. `null` when the call was ended by an earlier attempt of this `calls.end`
   * whose answer was lost (a timeout, a reset, a 5xx), and the retry found it gone: the time is not known.
   */
  ended_at: z.nullable(z.string()),
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
  transfer_type: openEnum<'blind' | 'attended'>(),
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

/**
 * The `custom_data` key under which `calls.create` stores its `idempotencyKey` (documented: a call's
 * detail shows it), and which the caller's own `custom_data` may therefore not use.
 */
export const IDEMPOTENCY_FIELD = 'telephony_sdk_idempotency_key';

/** 1–255 characters, none of them a control character (a key shows in messages and in `custom_data`). */
const idempotencyKey = () =>
  z.string().check(
    z.refine((key: string) => /^[^\p{Cc}]{1,255}$/u.test(key), {
      error: 'must be 1–255 printable characters',
    }),
  );

/** Request options of `calls.create` beside the common ones. */
export const CreateCallOptionsSchema = z.looseObject({ idempotencyKey: z.optional(idempotencyKey()) });

/** Options of `calls.findByIdempotencyKey`, and its key. */
export const FindByKeySchema = z.looseObject({ key: idempotencyKey(), since: z.optional(isoDate()) });

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
  /** Attached to the call, returned as sent. Its key `telephony_sdk_idempotency_key` is the SDK's. */
  custom_data: z.optional(
    jsonObject().check(
      z.refine((data) => !Object.hasOwn(data, IDEMPOTENCY_FIELD), {
        error: 'is reserved for the idempotencyKey option of calls.create',
        path: [IDEMPOTENCY_FIELD],
      }),
    ),
  ),
});
/**
 * What `calls.create` needs: at least `to` (E.164). Invalid values reject with `ValidationError` before any request.
 */
export interface CreateCallParams extends z.input<typeof CreateCallParamsSchema> {}

/**
 * The body of a `calls.create` given an idempotency key: the caller's params, checked (so the reserved
 * key is refused in theirs), then the key added to `custom_data` beside their own keys.
 */
export const keyedCreateCallSchema = (key: string) =>
  z.pipe(
    CreateCallParamsSchema,
    z.transform((body) => ({ ...body, custom_data: { ...body.custom_data, [IDEMPOTENCY_FIELD]: key } })),
  );

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

/** What `calls.waitFor` takes beside the call id, checked before the first read. */
export const WaitForCallSchema = z.looseObject({
  /** A status, a non-empty array of statuses, or a predicate. */
  until: z.union([
    z.string().check(notEmpty('must be a status, an array of statuses or a function')),
    z.array(z.string()).check(notEmpty('must hold at least one status')),
    z.custom<(call: CallDetail) => boolean>((value) => typeof value === 'function', {
      error: 'must be a status, an array of statuses or a function',
    }),
  ]),
  timeout: z.optional(intBetween(0)),
  pollInterval: z.optional(
    z.strictObject({ initial: z.optional(intBetween(1)), max: z.optional(intBetween(1)) }),
  ),
});
