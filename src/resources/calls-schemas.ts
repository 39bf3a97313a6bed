/**
 * What the calls endpoints (v2) take and return: the documented result interfaces, with SPEC.md's
 * wire names, and beside each the zod schema that checks it (held equal to it by
 * test/unit/resources/result-types.test.ts). `Calls` (calls.ts) describes the requests.
 */
import * as z from 'zod/mini';
import type { CallStatus, KnownCallStatus } from '../shared/call-status.js';
import { IDEMPOTENCY_FIELD } from './calls-idempotency-field.js';
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

const CallStatusSchema = openEnum<KnownCallStatus>();

export type { CallStatus, KnownCallStatus };

/** `inbound` or `outbound`; other values a newer service sends pass through. */
export type CallDirection = 'inbound' | 'outbound' | (string & {});

const DirectionSchema = openEnum<'inbound' | 'outbound'>();

/** One end of a call (`from` or `to`): a number and, when known, a name (SPEC.md, Call). */
export interface CallParty {
  /** Phone number, E.164 (`+14155550123`). */
  number: string;
  /** Display name; absent for a bare number. */
  name?: string | undefined;
  /** Fields the service adds. */
  [field: string]: unknown;
}
export const CallPartySchema = z.looseObject({
  number: z.string(),
  name: z.optional(z.string()),
});

/**
 * A call in SPEC.md's list form, as `calls.listRecent` yields it (SPEC.md, Call: list form). Every
 * field the endpoint lists is there; a listed call missing one rejects with
 * `ResponseValidationError`. Extra fields the service adds are kept.
 */
export interface Call {
  /** Call id, for `calls.get`, `end` and `transfer`. */
  id: string;
  /** `inbound` or `outbound` (open: other values pass through). */
  direction: CallDirection;
  /** The caller. */
  from: CallParty;
  /** The called party. */
  to: CallParty;
  /** Talk time in **seconds**; 0 for a missed call. */
  duration: number;
  /** Current status (`answered`, `missed`, `voicemail`, …; SPEC.md, Call status values). */
  status: CallStatus;
  /** Address of the recording (download it with `calls.downloadRecording`); `null` when none. */
  recording_url: string | null;
  /** Free-text notes on the call; may be empty. */
  notes?: string | undefined;
  /** Labels attached to the call; may be empty. */
  tags?: string[] | undefined;
  /** Start of the call, ISO 8601 UTC date-time. */
  timestamp: string;
  /** Fields the service adds. */
  [field: string]: unknown;
}
export const CallSchema = z.looseObject({
  id: z.string(),
  direction: DirectionSchema,
  from: CallPartySchema,
  to: CallPartySchema,
  duration: z.number(),
  status: CallStatusSchema,
  recording_url: z.nullable(z.string()),
  notes: z.optional(z.string()),
  tags: z.optional(z.array(z.string())),
  timestamp: z.string(),
});

/** The caller of a call in detail form: the list form's party and the matching contact. */
export interface CallDetailCaller extends CallParty {
  /** The caller's contact id, when the number matches a contact. */
  contact_id?: string | undefined;
}

/** The called party of a call in detail form: the list form's party and the user the call was for. */
export interface CallDetailCallee extends CallParty {
  /** The user the call was for. */
  user_id?: string | undefined;
}

/** The queue a call waited in (SPEC.md, Call: detail form). */
export interface CallQueue {
  /** Queue id. */
  id: string;
  /** Queue name. */
  name: string;
  /** Time waited in the queue: an integer whose unit SPEC.md does not state. */
  wait_time?: number | undefined;
  /** Fields the service adds. */
  [field: string]: unknown;
}

/**
 * A call in detail form, as `calls.get` returns it (SPEC.md, Call: detail form): the list form's
 * fields, plus contact, user, end time, queue, transfer history and custom data.
 */
export interface CallDetail extends Call {
  /** The caller, with the matching contact when there is one. */
  from: CallDetailCaller;
  /** The called party, with the user the call was for. */
  to: CallDetailCallee;
  /** End of the call, ISO 8601 UTC date-time; absent or `null` while it goes on. */
  ended_at?: string | null | undefined;
  /** The queue the call waited in; absent or `null` when none. */
  queue?: CallQueue | null | undefined;
  /** `true` when the call was transferred. */
  transferred?: boolean | undefined;
  /** The call's transfers; SPEC.md does not show their shape. */
  transfer_history?: unknown[] | undefined;
  /** Free-form data given at creation, returned as sent; `null` when none. */
  custom_data?: Record<string, unknown> | null | undefined;
}
export const CallDetailSchema = z.looseObject({
  ...CallSchema.shape,
  from: z.looseObject({ ...CallPartySchema.shape, contact_id: z.optional(z.string()) }),
  to: z.looseObject({ ...CallPartySchema.shape, user_id: z.optional(z.string()) }),
  ended_at: z.optional(z.nullable(z.string())),
  queue: z.optional(
    z.nullable(z.looseObject({ id: z.string(), name: z.string(), wait_time: z.optional(z.number()) })),
  ),
  transferred: z.optional(z.boolean()),
  transfer_history: z.optional(z.array(z.unknown())),
  custom_data: z.optional(z.nullable(anyObject())),
});

/**
 * The call `calls.create` returns, in status `initiating` (SPEC.md, Call: creation response). Later
 * changes arrive by webhook or `callback_url`.
 */
export interface CreatedCall {
  /** Id of the new call. */
  id: string;
  /** `initiating`. */
  status: CallStatus;
  /** `outbound` for a placed call. */
  direction: CallDirection;
  /** The caller: the account number used, and its name. */
  from: CallParty;
  /** The called party as `{ number, name }`, not the `to` string that was sent. */
  to: CallParty;
  /** Creation time, ISO 8601 UTC date-time. */
  timestamp: string;
  /** The `custom_data` given, returned as sent; `null` when none. */
  custom_data?: Record<string, unknown> | null | undefined;
  /** Fields the service adds. */
  [field: string]: unknown;
}
export const CreatedCallSchema = z.looseObject({
  id: z.string(),
  status: CallStatusSchema,
  direction: DirectionSchema,
  from: CallPartySchema,
  to: CallPartySchema,
  timestamp: z.string(),
  custom_data: z.optional(z.nullable(anyObject())),
});

/** What `calls.end` returns (SPEC.md, DELETE /v2/calls/{call_id}). */
export interface EndedCall {
  /** The call's id. */
  id: string;
  /** `ended`. */
  status: CallStatus;
  /**
   * End time, ISO 8601 UTC date-time. When an earlier attempt ended the call and its answer was lost,
   * the SDK reads the call back for it.
   */
  ended_at: string;
  /** Fields the service adds. */
  [field: string]: unknown;
}
export const EndedCallSchema = z.looseObject({
  id: z.string(),
  status: CallStatusSchema,
  ended_at: z.string(),
});

/** What `calls.transfer` returns (SPEC.md, POST /v2/calls/{call_id}/transfer). */
export interface TransferredCall {
  /** The call's id. */
  id: string;
  /** `transferring`. */
  status: CallStatus;
  /** The number or user id the call goes to. */
  transfer_to: string;
  /** `blind` or `attended`. */
  transfer_type: 'blind' | 'attended' | (string & {});
  /** Fields the service adds. */
  [field: string]: unknown;
}
export const TransferredCallSchema = z.looseObject({
  id: z.string(),
  status: CallStatusSchema,
  transfer_to: z.string(),
  transfer_type: openEnum<'blind' | 'attended'>(),
});

/** Query of `GET /v2/calls/recent`, held equal to {@link ListRecentCallsParams} by a type test. Unknown keys are refused (a typo would silently not filter). */
export const ListRecentCallsParamsSchema = z.strictObject({
  limit: z.optional(intBetween(1, 100)),
  offset: z.optional(intBetween(0)),
  direction: z.optional(oneOf(['inbound', 'outbound', 'all'])),
  status: z.optional(oneOf(['answered', 'missed', 'voicemail', 'all'])),
  from: z.optional(isoDate()),
  to: z.optional(isoDate()),
  user_id: z.optional(z.string()),
});
/**
 * Filters of `calls.listRecent`; all optional. Unknown keys reject with `ValidationError`.
 */
export interface ListRecentCallsParams {
  /** Calls per page: an integer 1–100, default 20. */
  limit?: number | undefined;
  /** Calls skipped: an integer ≥ 0, default 0. `for await` advances it for you. */
  offset?: number | undefined;
  /** Only `inbound` or `outbound` calls; default `all`. */
  direction?: 'inbound' | 'outbound' | 'all' | undefined;
  /** Only `answered`, `missed` or `voicemail` calls; default `all`. */
  status?: 'answered' | 'missed' | 'voicemail' | 'all' | undefined;
  /** Start of the period: ISO 8601 string (`2024-01-31`, `2024-01-31T09:00:00Z`) or `Date`. */
  from?: string | Date | undefined;
  /** End of the period: ISO 8601 string or `Date`. */
  to?: string | Date | undefined;
  /** Only this user's calls; administrators only. */
  user_id?: string | undefined;
}

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

/** Body of `POST /v2/calls`, held equal to {@link CreateCallParams} by a type test. */
export const CreateCallParamsSchema = z.strictObject({
  to: e164(),
  from: z.optional(e164()),
  user_id: z.optional(z.string()),
  record: z.optional(z.boolean()),
  callback_url: z.optional(httpUrl()),
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
export interface CreateCallParams {
  /** Number to call, E.164 (`+14155550123`). */
  to: string;
  /** Caller number, E.164; must be a valid number of the account. */
  from?: string | undefined;
  /** Caller user; administrators only. */
  user_id?: string | undefined;
  /** Record the call; default false. */
  record?: boolean | undefined;
  /** Called when the call status changes; an `http:` or `https:` URL. */
  callback_url?: string | undefined;
  /**
   * JSON object attached to the call, returned as sent. Its key `telephony_sdk_idempotency_key` is the
   * SDK's (the `idempotencyKey` option).
   */
  custom_data?: Record<string, unknown> | undefined;
}

/**
 * The body of a `calls.create` given an idempotency key: the caller's params, checked (so the reserved
 * key is refused in theirs), then the key added to `custom_data` beside their own keys.
 */
export const keyedCreateCallSchema = (key: string) =>
  // A check that rewrites the checked value: `z.pipe` and `z.transform` would add two zod types to
  // every bundle for this one schema.
  CreateCallParamsSchema.check(
    z.check<z.output<typeof CreateCallParamsSchema>>((payload) => {
      payload.value = {
        ...payload.value,
        custom_data: { ...payload.value.custom_data, [IDEMPOTENCY_FIELD]: key },
      };
    }),
  );

/** Body of `POST /v2/calls/{call_id}/transfer`, held equal to {@link TransferCallParams} by a type test. */
export const TransferCallParamsSchema = z.strictObject({
  to: z.string().check(notEmpty('must be a phone number or a user id')),
  type: z.optional(oneOf(['blind', 'attended'])),
  callback_url: z.optional(httpUrl()),
});
/**
 * What `calls.transfer` needs: `to`, and optionally `type` and `callback_url` (SPEC.md, POST
 * /v2/calls/{call_id}/transfer). Invalid values and unknown keys reject with `ValidationError` before
 * any request.
 */
export interface TransferCallParams {
  /** Where the call goes: a phone number, E.164 (`+14155550199`), or a user id; not empty. */
  to: string;
  /** `blind` (immediate; the default) or `attended`. */
  type?: 'blind' | 'attended' | undefined;
  /** Called when the transfer is finished; an `http:` or `https:` URL. */
  callback_url?: string | undefined;
}

/** What `calls.waitFor` takes beside the call id, checked before the first read. */
export const WaitForCallSchema = z.looseObject({
  /**
   * A status, a non-empty array of statuses, or a predicate: one check, where a `z.union` would add its
   * type to every bundle.
   */
  until: z.custom<string | readonly string[] | ((call: CallDetail) => boolean)>(
    (value) =>
      typeof value === 'function' ||
      (typeof value === 'string' && value !== '') ||
      (Array.isArray(value) && value.length > 0 && value.every((status) => typeof status === 'string')),
    { error: 'must be a status, a non-empty array of statuses or a function' },
  ),
  timeout: z.optional(intBetween(0)),
  pollInterval: z.optional(
    z.strictObject({ initial: z.optional(intBetween(1)), max: z.optional(intBetween(1)) }),
  ),
});
