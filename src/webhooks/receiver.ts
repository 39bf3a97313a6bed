import { EventEmitter } from 'eventemitter3';
import { TelephonyError } from '../shared/telephony-error.js';
import { type NodeRequest, type NodeResponse, nodeHandler } from './adapters.js';
import { type DedupStore, MemoryDedupStore } from './dedup.js';
import { WebhookVerificationError, type WebhookVerificationReason } from './errors.js';
import type { WebhookEvent, WebhookEventOf, WebhookEventType } from './events.js';
import { checkSettings, type VerifyWebhookOptions, verifyWebhook } from './verify.js';

/** Options of {@link WebhookReceiver}. */
export interface WebhookReceiverOptions extends VerifyWebhookOptions {
  /** The webhook secret, or several during a rotation. */
  secret: string | readonly string[];
  /** Where processed event ids are remembered. Default: a {@link MemoryDedupStore}. */
  store?: DedupStore;
  /**
   * How long a processed id is remembered, in seconds. Default 86 400. Keep it at least as long as
   * the service keeps re-delivering: a replay after it is forgotten runs the handlers again.
   */
  dedupTtl?: number;
}

/** Request headers: a `Headers` object, or a plain object with names in any case. */
export type HeadersLike = Headers | Record<string, string | readonly string[] | undefined>;

/** What {@link WebhookReceiver.handle} answers. */
export interface HandleResult {
  /** Status to answer: 200 processed (or already processed), 400/401 refused, 500 a handler or the store failed. */
  status: 200 | 400 | 401 | 500;
  /** The verified event; absent when verification failed. */
  event?: WebhookEvent;
  /**
   * Why it was not a plain success: a verification reason, `duplicate` (200, handlers not run),
   * `handler_error` (500) or `store_error` (500: the dedup store threw, so the service will re-deliver).
   */
  reason?: WebhookVerificationReason | 'duplicate' | 'handler_error' | 'store_error';
}

/**
 * Handlers per event type, a catch-all `'*'`, and observability events (names without a dot, so
 * they never collide with event types). Observability payloads carry no secret or signature.
 */
export type WebhookReceiverEvents = {
  [Type in WebhookEventType]: (event: WebhookEventOf<Type>) => unknown;
} & {
  /** Catch-all: runs for every verified event, alongside the handlers of its type. */
  '*': (event: WebhookEvent) => unknown;
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
};

/** The `Service-Signature` value as given: verifyWebhook takes an array's first value. */
function signatureHeader(headers: HeadersLike): string | readonly string[] | null | undefined {
  if (typeof headers.get === 'function') return (headers as Headers).get('service-signature');
  for (const [name, value] of Object.entries(headers))
    if (name.toLowerCase() === 'service-signature') return value;
  return undefined;
}

/**
 * Verifies deliveries, runs the handlers registered for each event, and answers the status the
 * service expects: 200 processed or already processed, 400/401 refused, 500 when a handler failed
 * (the id is then not remembered, so the service's re-delivery runs the handlers again).
 *
 * Handlers are registered with `on`/`once`/`off` (eventemitter3); the ones for an event's type and
 * the catch-all `'*'` run together and are awaited. A processed id is remembered for `dedupTtl`
 * seconds (default 86 400) in `store` (default in memory).
 *
 * @example
 * ```ts
 * // WebhookReceiver comes from telephony-sdk/webhooks
 * const receiver = new WebhookReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * receiver.on('call.incoming', async (event) => {
 *   await notifyAgent(event.data.call.to.user_id, event.data.call.from.number);
 * });
 *
 * // node:http or Express (mount before any JSON body parser):
 * http.createServer(receiver.nodeHandler).listen(3000);
 * // Hono, Next.js route handlers, Bun, Deno, Workers:
 * export const POST = receiver.fetchHandler;
 * ```
 */
export class WebhookReceiver extends EventEmitter<WebhookReceiverEvents> {
  readonly #options: WebhookReceiverOptions;
  readonly #store: DedupStore;
  readonly #inFlight = new Map<string, Promise<HandleResult>>();

  /**
   * @throws {TelephonyError} when a setting would break every delivery: no secret (an unset
   *   environment variable), a tolerance or `dedupTtl` that is not a positive number of seconds.
   */
  constructor(options: WebhookReceiverOptions) {
    super();
    checkSettings(options.secret, options);
    const { dedupTtl } = options;
    if (dedupTtl !== undefined && !(dedupTtl > 0 && dedupTtl < Number.POSITIVE_INFINITY))
      throw new TelephonyError('dedupTtl must be a positive number of seconds');
    this.#options = options;
    this.#store = options.store ?? new MemoryDedupStore();
  }

  /**
   * Verifies one delivery and runs its handlers, all awaited together. Never rejects for a bad
   * delivery or a failing handler: the outcome is in the result's `status` and `reason`.
   *
   * @throws {TelephonyError} (a rejection) when `body` is not raw bytes.
   */
  async handle({
    body,
    headers,
  }: {
    /** The exact bytes received, as a string or Uint8Array (not parsed JSON). */
    body: string | Uint8Array;
    /** The request headers; `Service-Signature` is read from them. */
    headers: HeadersLike;
  }): Promise<HandleResult> {
    let event: WebhookEvent;
    try {
      event = await verifyWebhook(body, signatureHeader(headers), this.#options.secret, this.#options);
    } catch (error) {
      // Misuse (a parsed body, no secret) is the caller's bug, not the sender's: let it surface.
      if (!(error instanceof WebhookVerificationError)) throw error;
      this.emit('verification_failed', { reason: error.reason, status: error.status });
      return { status: error.status, reason: error.reason };
    }
    // A concurrent delivery of the same id shares the first one's outcome: a 500 makes the service retry.
    let pending = this.#inFlight.get(event.id);
    if (!pending) {
      // Handler failures are settled inside #process: what rejects here is the store (or a throwing listener).
      pending = this.#process(event)
        .catch((error: unknown): HandleResult => {
          this.emit('store_error', { id: event.id, type: event.type, error });
          return { status: 500, event, reason: 'store_error' };
        })
        .finally(() => this.#inFlight.delete(event.id));
      this.#inFlight.set(event.id, pending);
    }
    return pending;
  }

  async #process(event: WebhookEvent): Promise<HandleResult> {
    const { id, type } = event;
    if (await this.#store.has(id)) {
      this.emit('duplicate', { id, type });
      return { status: 200, event, reason: 'duplicate' };
    }
    // Handlers are called here, not through emit(), which drops their promises; once() ones are removed.
    const registry = this as unknown as EventEmitter;
    const handlers = [type, '*'].flatMap((name) =>
      registry
        .listeners(name)
        .map((handler) => registry.removeListener(name, handler, undefined, true) && handler),
    );
    const outcomes = await Promise.allSettled(
      handlers.map(async (handler) => (handler as (event: WebhookEvent) => unknown)(event)),
    );
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed) {
      this.emit('handler_error', { id, type, error: failed.reason });
      return { status: 500, event, reason: 'handler_error' };
    }
    await this.#store.add(id, this.#options.dedupTtl ?? 86_400);
    return { status: 200, event };
  }

  /** For `(Request) => Promise<Response>` frameworks: Hono, Next.js route handlers, Bun, Deno, Workers. */
  readonly fetchHandler = async (request: Request): Promise<Response> => {
    if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
    const body = new Uint8Array(await request.arrayBuffer());
    const { status } = await this.handle({ body, headers: request.headers });
    return new Response(null, { status });
  };

  /** For node:http and Express: reads the raw body from the request stream itself. */
  readonly nodeHandler = (req: NodeRequest, res: NodeResponse): void => nodeHandler(this, req, res);
}
