import type { WebhookVerificationReason } from './errors.js';
import type { AnyReceivedWebhookEvent, ReceivedWebhookEvent } from './events.js';

/**
 * The receiver's names that are not event types: the catch-all `'*'` and the observability events
 * (names without a dot, so they never collide with event types). Observability payloads carry no
 * secret or signature.
 */
export interface WebhookReceiverEvents {
  /** Catch-all: runs for every verified event, alongside the handlers of its type. */
  '*': (event: AnyReceivedWebhookEvent) => unknown;
  /** A delivery was refused (answered 400 or 401). */
  verification_failed: (info: { reason: WebhookVerificationReason; status: number }) => void;
  /** A re-delivery of an already processed event id (answered 200, handlers not run). */
  duplicate: (info: { id: string; type: string }) => void;
  /** A handler threw or rejected (answered 500, id not remembered). */
  handler_error: (info: { id: string; type: string; error: unknown }) => void;
  /**
   * The dedup store's `has` or `add` threw or rejected (answered 500, so the service re-delivers). When
   * `add` failed the handlers had already run: the re-delivery runs them again (at least once, never lost).
   */
  store_error: (info: { id: string; type: string; error: unknown }) => void;
  /**
   * `nodeHandler` or `fetchHandler` got a request whose body was already read (a body parser mounted
   * first, `request.json()`): the exact bytes are gone, so it answered 500 without verifying. `message`
   * names the fix. Without a listener, the first one is a process warning instead.
   */
  body_already_read: (info: { status: 500; message: string }) => void;
}

/**
 * A handler for `Name`: for an event type (any string: `call.incoming`, `call.status_changed`, a type
 * newer than this SDK), a function of {@link ReceivedWebhookEvent}; for `'*'` and the observability
 * names, the function {@link WebhookReceiverEvents} gives.
 */
export type WebhookHandler<Name extends string> = [Name] extends [keyof WebhookReceiverEvents]
  ? WebhookReceiverEvents[Name]
  : (event: ReceivedWebhookEvent<Name>) => unknown;
