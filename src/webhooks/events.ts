/** Fields every webhook event carries. */
interface Envelope<Type extends string, Data> {
  /** Unique event id; a re-delivery carries the same id. */
  id: string;
  type: Type;
  /** ISO 8601 time of the event. */
  created_at: string;
  data: Data;
}

/** Payload of `call.incoming`. */
export interface CallIncomingData {
  call: {
    id: string;
    direction: string;
    from: { number: string; name?: string; contact_id?: string };
    to: { number: string; name?: string; user_id?: string };
    status: 'ringing';
    timestamp: string;
    queue?: { id: string; name: string };
    custom_data?: Record<string, unknown>;
  };
}

/** A new incoming call is received. */
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

/** An event of a documented type with an undocumented payload. */
export type OpenWebhookEvent<Type extends OpenWebhookEventType = OpenWebhookEventType> = {
  [T in Type]: Envelope<T, Record<string, unknown>>;
}[Type];

/** Every documented event, discriminated by `type`. */
export type KnownWebhookEvent = CallIncomingEvent | OpenWebhookEvent;

/** Every documented event type. */
export type WebhookEventType = KnownWebhookEvent['type'];

/**
 * An event of a type this SDK version does not know yet. `verifyWebhook` returns such events rather
 * than rejecting them, typed as {@link WebhookEvent} so that `event.type === 'call.incoming'` narrows
 * `data` in editors (a `string` member in the union would stop that); reach them in a `default:`
 * branch with `event as UnknownWebhookEvent`.
 */
export type UnknownWebhookEvent = Envelope<string, Record<string, unknown>>;

/** A verified webhook event, discriminated by `type`: `if (event.type === 'call.incoming') event.data.call`. */
export type WebhookEvent = KnownWebhookEvent;

/** The event for a documented type. */
export type WebhookEventOf<Type extends WebhookEventType> = Extract<KnownWebhookEvent, { type: Type }>;
