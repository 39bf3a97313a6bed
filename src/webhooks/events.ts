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

/** Payload of `call.incoming` (SPEC.md, Events). */
export interface CallIncomingData {
  /** The ringing call. */
  call: {
    /** Call id, for `client.calls.get`, `end` and `transfer`. */
    id: string;
    /** `inbound` for an incoming call. */
    direction: string;
    /** The caller. */
    from: {
      /** Caller's number, E.164. */
      number: string;
      /** Caller's name, when known. */
      name?: string;
      /** The matching contact, when there is one. */
      contact_id?: string;
    };
    /** Who is called. */
    to: {
      /** Called number, E.164. */
      number: string;
      /** Name of the called line or user. */
      name?: string;
      /** The user the call rings for. */
      user_id?: string;
    };
    /** Always `ringing`. */
    status: 'ringing';
    /** ISO 8601 time the call started. */
    timestamp: string;
    /** The queue the call waits in, if any. */
    queue?: {
      /** Queue id. */
      id: string;
      /** Queue name. */
      name: string;
    };
    /** Free-form data attached to the call. */
    custom_data?: Record<string, unknown>;
  };
}

/**
 * A new incoming call is received: `data.call` is the ringing call.
 * @useDeclaredType
 */
export type CallIncomingEvent = Envelope<'call.incoming', CallIncomingData>;

/** Event types whose payload the spec does not show; `data` stays open. */
export type OpenWebhookEventType =
  | 'call.answered'
  | 'call.missed'
  | 'call.ended'
  | 'call.transferred'
  | 'voicemail.new'
  | 'voicemail.read'
  | 'message.new'
  | 'user.presence_changed'
  | 'contact.created'
  | 'contact.updated';

/**
 * An event of a documented type with an undocumented payload: `data` is an open record.
 * @useDeclaredType
 */
export type OpenWebhookEvent<Type extends OpenWebhookEventType = OpenWebhookEventType> = {
  [T in Type]: Envelope<T, Record<string, unknown>>;
}[Type];

/** A verified webhook event, discriminated by `type`: `if (event.type === 'call.incoming') event.data.call`. */
export type WebhookEvent = CallIncomingEvent | OpenWebhookEvent;

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
