import type { CallStatus } from '../shared/call-status.js';

export type { CallStatus };

/** Fields every webhook event carries. */
interface Envelope<Type extends string, Data> {
  /** Unique event id; a re-delivery carries the same id. */
  id: string;
  /** The event type (`call.incoming`, …): narrows `data`. */
  type: Type;
  /** ISO 8601 time of the event. */
  created_at: string;
  /** The event's payload. */
  data: Data;
}

/** The caller of a call in an event. */
export interface WebhookCaller {
  /** Caller's number, E.164. */
  number: string;
  /** Caller's name, when known. */
  name?: string;
  /** The matching contact; `null` (or absent) when the number matches none. */
  contact_id?: string | null;
}

/** The called party of a call in an event. */
export interface WebhookCallee {
  /** Called number, E.164. */
  number: string;
  /** Name of the called line or user. */
  name?: string;
  /** The user the call rings for; `null` (or absent) when unknown. */
  user_id?: string | null;
}

/**
 * The call a call event carries in `data.call`. The fields SPEC.md shows for `call.incoming` are
 * typed as it shows them; the detail-form fields (`duration`, `ended_at`, …) are optional, since the
 * spec does not show the other payloads. Fields the service adds are kept (the parsed body as sent).
 */
export interface WebhookCall {
  /** Call id, for `client.calls.get`, `end` and `transfer`. */
  id: string;
  /** `inbound` or `outbound`; other values pass through. */
  direction: 'inbound' | 'outbound' | (string & {});
  /** The caller. */
  from: WebhookCaller;
  /** Who is called. */
  to: WebhookCallee;
  /** The status the event leaves the call in. */
  status: CallStatus;
  /** ISO 8601 time the call started. */
  timestamp: string;
  /** The queue the call waits in, if any. */
  queue?: {
    /** Queue id. */
    id: string;
    /** Queue name. */
    name: string;
    /** Time waited (an integer; the spec does not show its unit). */
    wait_time?: number;
  } | null;
  /** Free-form data attached to the call. */
  custom_data?: Record<string, unknown> | null;
  /** Talk time in seconds; 0 for a missed call. */
  duration?: number;
  /** Address of the recording; `null` when none. */
  recording_url?: string | null;
  /** Free-text notes on the call. */
  notes?: string;
  /** Labels attached to the call. */
  tags?: string[];
  /** End of the call, ISO 8601, once it has ended. */
  ended_at?: string | null;
  /** `true` once the call was transferred. */
  transferred?: boolean;
  /** The call's transfers (element shape not shown in the spec). */
  transfer_history?: unknown[];
}

/** The ringing call of `call.incoming` (SPEC.md, Events). */
export interface IncomingCall extends WebhookCall {
  /** Always `ringing`. */
  status: 'ringing';
}

/** Payload of `call.incoming` (SPEC.md, Events). */
export interface CallIncomingData {
  /** The ringing call. */
  call: IncomingCall;
}

/** Payload of the other call events and `voicemail.new`: the call, as it is after the change. */
export interface CallEventData {
  /** The call the event is about. */
  call: WebhookCall;
}

/**
 * A new incoming call is received: `data.call` is the ringing call.
 * @useDeclaredType
 */
export type CallIncomingEvent = Envelope<'call.incoming', CallIncomingData>;

/**
 * A call is answered (or, after a transfer, answered at its new end: see `call.transferred`).
 * @useDeclaredType
 */
export type CallAnsweredEvent = Envelope<'call.answered', CallEventData>;

/**
 * An incoming call is not answered (`status` `missed`, or `voicemail` when it went to voicemail).
 * @useDeclaredType
 */
export type CallMissedEvent = Envelope<'call.missed', CallEventData>;

/**
 * A call ends (`status` `completed` or `ended`).
 * @useDeclaredType
 */
export type CallEndedEvent = Envelope<'call.ended', CallEventData>;

/**
 * A call is transferred; `data.call.transfer_history` lists its transfers.
 * @useDeclaredType
 */
export type CallTransferredEvent = Envelope<'call.transferred', CallEventData>;

/**
 * A new voicemail message is received: `data.call` is the call that left it.
 * @useDeclaredType
 */
export type VoicemailNewEvent = Envelope<'voicemail.new', CallEventData>;

/** Event types whose payload the spec does not show; `data` stays open. */
export type OpenWebhookEventType =
  | 'voicemail.read'
  | 'message.new'
  | 'user.presence_changed'
  | 'contact.created'
  | 'contact.updated';

/**
 * The payload of an event whose payload SPEC.md does not show: an open record, with `call` typed for
 * an event that carries a call.
 */
export interface OpenEventData {
  /** The call the event is about, when it carries one. */
  call?: WebhookCall | undefined;
  /** The payload's other fields, as sent. */
  [field: string]: unknown;
}

/**
 * An event of a documented type with an undocumented payload: `data` is an open record.
 * @useDeclaredType
 */
export type OpenWebhookEvent<Type extends OpenWebhookEventType = OpenWebhookEventType> = {
  [T in Type]: Envelope<T, OpenEventData>;
}[Type];

/**
 * A verified webhook event, discriminated by `type`: `if (event.type === 'call.ended') event.data.call`.
 * Every call event and `voicemail.new` carry a typed `data.call`.
 */
export type WebhookEvent =
  | CallIncomingEvent
  | CallAnsweredEvent
  | CallMissedEvent
  | CallEndedEvent
  | CallTransferredEvent
  | VoicemailNewEvent
  | OpenWebhookEvent;

/** Every documented event, discriminated by `type`: the same union as {@link WebhookEvent}. */
export type KnownWebhookEvent = WebhookEvent;

/** Every documented event type. */
export type WebhookEventType = KnownWebhookEvent['type'];

/**
 * An event of a type this SDK version does not know yet. `verifyWebhook` returns such events rather
 * than rejecting them, typed as {@link WebhookEvent} so that `event.type === 'call.incoming'` narrows
 * `data` in editors (a `string` member in the union would stop that); reach them in a `default:`
 * branch with `event as UnknownWebhookEvent`.
 * @useDeclaredType
 */
export type UnknownWebhookEvent = Envelope<string, Record<string, unknown>>;

/** The event for a documented type. */
export type WebhookEventOf<Type extends WebhookEventType> = Extract<
  KnownWebhookEvent,
  {
    /** The event type to select. */
    type: Type;
  }
>;

/**
 * A call's status changed: what the service posts to a call's `callback_url` (SPEC.md does not show
 * the payload; the sandbox posts this type), `data.call` the call as it is now.
 * @useDeclaredType
 */
export type CallStatusChangedEvent = Envelope<'call.status_changed', CallEventData>;

/**
 * An event of a type this SDK has no payload type for, as a receiver hands it to the handlers of
 * that type: `data` stays open, and `data.call` is typed for an event that carries a call.
 * @useDeclaredType
 */
export type OtherWebhookEvent<Type extends string = string> = Envelope<Type, OpenEventData>;

/**
 * The event a `WebhookReceiver` hands to a handler registered for `Type`: the documented event of
 * that type, {@link CallStatusChangedEvent}, or {@link OtherWebhookEvent} for any other type.
 */
export type ReceivedWebhookEvent<Type extends string> = Type extends WebhookEventType
  ? WebhookEventOf<Type>
  : Type extends 'call.status_changed'
    ? CallStatusChangedEvent
    : OtherWebhookEvent<Type>;

/**
 * What a receiver's catch-all `'*'` handler gets: every documented event and `call.status_changed`,
 * discriminated by `type`, so `if (event.type === 'call.ended') event.data.call` needs no cast.
 */
export type AnyReceivedWebhookEvent = WebhookEvent | CallStatusChangedEvent;
