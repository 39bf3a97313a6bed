import { Deadlines } from '../shared/deadlines.js';
import { TelephonyError } from '../shared/telephony-error.js';
import { fetchHandler, type NodeRequest, type NodeResponse, nodeHandler } from './adapters.js';
import { answerBody, answerReason } from './answer.js';
import { type Claim, claimEvent } from './claim.js';
import { type DedupStore, MemoryDedupStore } from './dedup.js';
import { WebhookVerificationError, type WebhookVerificationReason } from './errors.js';
import type { WebhookEvent } from './events.js';
import { type HeadersLike, headersTooLarge, signatureHeader } from './header.js';
import { Listeners, type Registration } from './listeners.js';
import type { WebhookHandler, WebhookReceiverEvents } from './receiver-events.js';
import type { WebhookReceiverOptions } from './receiver-options.js';
import { andThen, bounded, isThenable } from './timers.js';
import { checkSettings, verifyEvent } from './verify.js';
import { warn } from './warn.js';

/** Reports a delivery's failure (once per attempt) and gives its 500 answer. */
type Failed = (reason: 'handler_error' | 'store_error', error: unknown) => HandleResult;

/** One delivery as {@link WebhookReceiver.handle} takes it. */
type Delivery = Parameters<WebhookReceiver['handle']>[0];

/** What {@link WebhookReceiver.handle} answers. */
export interface HandleResult {
  /**
   * Status to answer: 200 processed (or already processed), 400/401 refused, 409 another delivery of
   * the event is running (the service re-delivers later), 431 headers over 16 KiB, 500 a handler or
   * the store failed.
   */
  status: 200 | 400 | 401 | 409 | 431 | 500;
  /** The verified event; absent when verification failed. */
  event?: WebhookEvent;
  /**
   * Why it was not a plain success: a verification reason, `duplicate` (200, handlers not run),
   * `in_progress` (409: another delivery holds the id's claim, see `DedupStore.claim`; nothing ran),
   * `handler_error` (500) or `store_error` (500: the dedup store threw or did not answer within 2 s,
   * so the service will re-deliver) or `headers_too_large` (431: names and values over 16 KiB, node:http's
   * own cap; nothing verified).
   */
  reason?:
    | WebhookVerificationReason
    | 'duplicate'
    | 'in_progress'
    | 'handler_error'
    | 'store_error'
    | 'headers_too_large';
  /**
   * The body to answer with, as `nodeHandler` and `fetchHandler` answer: `{ "error": "<reason>" }`
   * (JSON) for a non-2xx, so the service's delivery log shows why; absent for a 2xx.
   */
  body?: string;
}

/** `result` with the body a non-2xx answers with; a 2xx's result as it is. */
function withBody(result: HandleResult): HandleResult {
  const body = answerBody(result);
  return body === undefined ? result : { ...result, body };
}

/**
 * Verifies deliveries, runs the handlers registered for each event, and answers the status the
 * service expects: 200 processed or already processed, 400/401 refused, 409 while another delivery of
 * the event runs its handlers (nothing runs; the service re-delivers later), 500 when a handler failed
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
export class WebhookReceiver {
  readonly #listeners = new Listeners(this);
  readonly #options: WebhookReceiverOptions;
  readonly #store: DedupStore;
  /** `dedupTtl` in whole seconds (Redis `EX` takes integers). */
  readonly #ttl: number;
  /** `handlerTimeout` in seconds; beyond a timer's range (Infinity included), no timer. */
  readonly #timeout: number;
  readonly #inFlight = new Map<string, Promise<HandleResult>>();
  /** The claim's lease, whole seconds (Redis `EX` takes no other): `handlerTimeout`, an hour when that is Infinity. */
  readonly #lease: number;
  /** One timer each for the handlers' time-out, the store's 2 s and the claims' renewals. */
  readonly #timers: { handlers: Deadlines; store: Deadlines; renewal: Deadlines };
  /**
   * Claim tokens: random per receiver, then a count, so each delivery's is its own without a random
   * UUID per delivery.
   */
  readonly #tokenPrefix = crypto.randomUUID();
  #tokens = 0;
  #warned = false;
  /** Largest body `nodeHandler` and `fetchHandler` read, in bytes (option `maxBodyBytes`, default 1 MiB). */
  readonly maxBodyBytes: number;

  /**
   * @throws {TelephonyError} when a setting would break every delivery: no secret (an unset
   *   environment variable), a tolerance, `dedupTtl`, `handlerTimeout`, `maxBodyBytes` or `maxEventAge`
   *   that is not a positive number, a `handlerTimeout` over 3600 (milliseconds, not seconds), a
   *   `maxEventAge` longer than `dedupTtl` (a replay of an event whose id is forgotten would run).
   */
  constructor(options: WebhookReceiverOptions) {
    checkSettings(options.secret, options);
    for (const name of ['dedupTtl', 'handlerTimeout', 'maxBodyBytes', 'maxEventAge'] as const) {
      const value = options[name];
      // An infinite ttl would reach the store as Infinity (Redis EX refuses it: every delivery a 500).
      if (value !== undefined && !(value > 0 && (name !== 'dedupTtl' || value < Infinity)))
        throw new TelephonyError(`${name} must be a positive number`);
    }
    const timeout = options.handlerTimeout ?? 30;
    // Over an hour (finite) it can only be milliseconds: 30000 would hold a hung event's id 8.3 hours.
    if (timeout > 3600 && timeout < Infinity)
      throw new TelephonyError(
        `handlerTimeout is in seconds: ${timeout} would be ${+(timeout / 3600).toFixed(1)} hours`,
      );
    this.#options = options;
    this.#store = options.store ?? new MemoryDedupStore();
    this.#ttl = Math.ceil(options.dedupTtl ?? 86_400);
    // Older events must be refused before the store forgets their ids, or a replay of one would run.
    if ((options.maxEventAge ?? 0) > this.#ttl)
      throw new TelephonyError('maxEventAge must not exceed dedupTtl');
    this.#timeout = timeout;
    this.#lease = Math.ceil(Math.min(timeout, 3600));
    this.#timers = {
      handlers: new Deadlines(timeout * 1000),
      store: new Deadlines(2000),
      renewal: new Deadlines(this.#lease * 333),
    };
    this.maxBodyBytes = options.maxBodyBytes ?? 1_048_576;
  }

  /**
   * Verifies one delivery and runs its handlers, all awaited together. Never rejects for a bad
   * delivery, a failing handler or a throwing observability listener: the outcome is in the
   * result's `status` and `reason`.
   *
   * @throws {TelephonyError} (a rejection) when `body` is not raw bytes.
   */
  handle(delivery: {
    /** The exact bytes received, as a Uint8Array, Buffer, ArrayBuffer or their text (not parsed JSON). */
    body: string | Uint8Array | ArrayBuffer;
    /** The request headers; `Service-Signature` is read from them. */
    headers: HeadersLike;
  }): Promise<HandleResult> {
    const tracer = this.#options.tracer;
    // The span is the active one while handlers run, so theirs are its children. A misuse rejection
    // (not raw bytes) leaves it unended: no delivery happened.
    if (tracer)
      return tracer.startActiveSpan('webhook', { kind: 1 }, async (span) => {
        const result = await this.#handle(delivery);
        const { status, event, reason } = result;
        if (event) span.updateName(`webhook ${event.type}`);
        if (status > 499) span.setStatus({ code: 2 });
        span
          .setAttributes({
            'telephony.event.id': event?.id,
            'telephony.event.type': event?.type,
            'http.response.status_code': status,
            'telephony.webhook.outcome': answerReason(result) ?? reason ?? 'handled',
          })
          .end();
        return withBody(result);
      });
    try {
      return Promise.resolve(this.#handle(delivery)).then(withBody);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * What the adapters call: {@link WebhookReceiver.handle}'s result, as it is when every step was
   * synchronous (node:crypto, a synchronous store, handlers that return no promise): the answer is
   * then written in the same tick the body ended, with no promise between. Throws (or rejects) on
   * misuse, as `handle` rejects.
   */
  readonly #answer = (delivery: Delivery): HandleResult | Promise<HandleResult> =>
    this.#options.tracer ? this.handle(delivery) : this.#handle(delivery);

  #handle({ body, headers }: Delivery): HandleResult | Promise<HandleResult> {
    // Before any work: a stuffed signature header would otherwise be parsed and compared entry by entry.
    if (headersTooLarge(headers)) return { status: 431, reason: 'headers_too_large' };
    let event: WebhookEvent | Promise<WebhookEvent>;
    try {
      const options = this.#options;
      const verified = verifyEvent(body, signatureHeader(headers), options.secret, options);
      event = verified instanceof Promise ? verified.then(this.#recent) : this.#recent(verified);
    } catch (error) {
      return this.#refused(error);
    }
    return isThenable(event) ? event.then(this.#start, this.#refused) : this.#start(event);
  }

  /** The event, unless its created_at is older than maxEventAge (NaN: missing or unparseable, refused too). */
  readonly #recent = (event: WebhookEvent): WebhookEvent => {
    const options = this.#options;
    if (
      !(
        Date.parse(event.created_at) / 1000 >=
        (options.now ?? Date.now() / 1000) - (options.maxEventAge ?? this.#ttl)
      )
    )
      throw new WebhookVerificationError('event_too_old');
    return event;
  };

  readonly #refused = (error: unknown): HandleResult => {
    // Misuse (a parsed body, no secret) is the caller's bug, not the sender's: let it surface.
    if (!(error instanceof WebhookVerificationError)) throw error;
    this.#notify('verification_failed', { reason: error.reason, status: error.status });
    return { status: error.status, reason: error.reason };
  };

  readonly #start = (event: WebhookEvent): HandleResult | Promise<HandleResult> => {
    // A concurrent delivery of the same id shares the first one's outcome: a 500 makes the service retry.
    const running = this.#inFlight.get(event.id);
    if (running) return running;
    // Past the timeout the answer is given: what the attempt does later must not report or release
    // again. One report per attempt: a failure after the timeout's answer was given is not reported.
    let over = false;
    const failed: Failed = (reason, error) => {
      if (!over) this.#notify(reason, { id: event.id, type: event.type, error });
      over = true;
      return { status: 500, event, reason };
    };
    let result: HandleResult | Promise<HandleResult>;
    try {
      result = this.#process(event, failed);
    } catch (error) {
      // Handler failures are settled inside #process: what throws here is the store.
      return failed('store_error', error);
    }
    // Settled already: nothing ran past this tick, so there is nothing to time out or to share.
    if (!isThenable(result)) return result;
    const seconds = this.#timeout;
    const pending = bounded(
      result.catch((error: unknown) => failed('store_error', error)),
      this.#timers.handlers,
      () =>
        failed(
          'handler_error',
          new TelephonyError(`event ${event.id} was not processed within ${seconds} s`),
        ),
    ).finally(() => this.#inFlight.delete(event.id));
    this.#inFlight.set(event.id, pending);
    return pending;
  };

  #process(event: WebhookEvent, failed: Failed): HandleResult | Promise<HandleResult> {
    const token = `${this.#tokenPrefix}-${(++this.#tokens).toString(36)}`;
    return andThen(claimEvent(this.#store, event.id, this.#lease, token, this.#timers), (claim) => {
      if (claim === 'done') {
        this.#notify('duplicate', { id: event.id, type: event.type });
        return { status: 200, event, reason: 'duplicate' };
      }
      // Another delivery holds the id: a 409 makes the service come back.
      if (claim === 'held') return { status: 409, event, reason: 'in_progress' };
      return this.#run(event, claim, failed);
    });
  }

  /**
   * Runs the handlers of the event's type and the catch-all. Called here rather than through emit(),
   * which drops their promises. A `once` listener is taken out now (a concurrent event does not run
   * it too) and put back if this event fails, so the re-delivery runs it.
   */
  #run(event: WebhookEvent, claim: Claim, failed: Failed): HandleResult | Promise<HandleResult> {
    const listeners = this.#listeners.takeFor(event.type);
    // A handler that throws counts as one that rejects. Handlers that return no promise (a
    // synchronous one) are not waited for: nothing to settle.
    const results = listeners.map(([, fn, context]) => {
      try {
        return (fn as (event: WebhookEvent) => unknown).call(context, event);
      } catch (error) {
        return Promise.reject(error);
      }
    });
    if (!results.some(isThenable)) return this.#finish(event, claim, listeners, undefined, failed);
    claim.hold();
    return Promise.allSettled(results).then((outcomes) =>
      this.#finish(
        event,
        claim,
        listeners,
        outcomes.find((outcome) => outcome.status === 'rejected'),
        failed,
      ),
    );
  }

  /** Once the handlers settled: the id remembered (200), or the claim released (500). */
  #finish(
    event: WebhookEvent,
    claim: Claim,
    listeners: Registration[],
    rejected: PromiseRejectedResult | undefined,
    failed: Failed,
  ): HandleResult | Promise<HandleResult> {
    claim.end();
    const settle = (done: boolean) => this.#listeners.settle(listeners, done);
    if (rejected) {
      settle(false);
      return andThen(claim.release(), () => failed('handler_error', rejected.reason));
    }
    const lost = (error: unknown) => {
      settle(false);
      return andThen(claim.release(), (): never => {
        throw error;
      });
    };
    let added: void | Promise<void>;
    try {
      added = bounded(this.#store.add(event.id, this.#ttl, claim.token), this.#timers.store);
    } catch (error) {
      return lost(error);
    }
    const remembered = (): HandleResult => {
      settle(true);
      return { status: 200, event };
    };
    return isThenable(added) ? added.then(remembered, lost) : remembered();
  }

  /**
   * Runs `handler` for each verified event of type `name` (any event type string: `call.incoming`,
   * `call.status_changed`, a type newer than this SDK), for every event (`'*'`), or for an
   * observability event (`handler_error`, …). `context` is its `this` (the receiver by default).
   */
  on<Name extends string>(name: Name, handler: WebhookHandler<Name>, context?: unknown): this {
    this.#listeners.on(name, handler, context, false);
    return this;
  }

  /** Same as {@link WebhookReceiver.on}. */
  addListener<Name extends string>(name: Name, handler: WebhookHandler<Name>, context?: unknown): this {
    return this.on(name, handler, context);
  }

  /**
   * As {@link WebhookReceiver.on}, for one event: spent once its event succeeded, and kept for the
   * re-delivery when a handler of that event failed.
   */
  once<Name extends string>(name: Name, handler: WebhookHandler<Name>, context?: unknown): this {
    this.#listeners.on(name, handler, context, true);
    return this;
  }

  /**
   * Removes the handlers of `name`: all of them, or those that are `handler` (and, when given, were
   * registered with `context`, or with `once`).
   */
  off<Name extends string>(
    name: Name,
    handler?: WebhookHandler<Name>,
    context?: unknown,
    once?: boolean,
  ): this {
    this.#listeners.off(name, handler, context, once);
    return this;
  }

  /** Same as {@link WebhookReceiver.off}. */
  removeListener<Name extends string>(
    name: Name,
    handler?: WebhookHandler<Name>,
    context?: unknown,
    once?: boolean,
  ): this {
    return this.off(name, handler, context, once);
  }

  /** Removes every handler of `name`, or every handler of the receiver. */
  removeAllListeners(name?: string): this {
    this.#listeners.removeAll(name);
    return this;
  }

  /** The handlers registered for `name`. */
  listeners<Name extends string>(name: Name): WebhookHandler<Name>[] {
    return this.#listeners.listeners(name) as WebhookHandler<Name>[];
  }

  /** How many handlers are registered for `name`. */
  listenerCount(name: string): number {
    return this.#listeners.count(name);
  }

  /** The names that have handlers. */
  eventNames(): string[] {
    return this.#listeners.names();
  }

  /**
   * Calls the handlers of `name` with `args` without awaiting them, as eventemitter3's `emit` does
   * (deliveries go through {@link WebhookReceiver.handle}, which awaits them); `true` when it had any.
   */
  emit<Name extends string>(name: Name, ...args: Parameters<WebhookHandler<Name>>): boolean {
    return this.#listeners.emit(name, args);
  }

  /**
   * Observability listeners must not change the answer: one that throws, or returns a promise that
   * rejects, is ignored (an unhandled rejection would end the process).
   */
  #notify<
    Name extends 'verification_failed' | 'duplicate' | 'handler_error' | 'store_error' | 'body_already_read',
  >(name: Name, info: Parameters<WebhookReceiverEvents[Name]>[0]): void {
    for (const [, fn, context] of this.#listeners.take(name, true))
      try {
        Promise.resolve((fn as (info: unknown) => unknown).call(context, info)).catch(() => {});
      } catch {}
  }

  /** For `(Request) => Promise<Response>` frameworks: Hono, Next.js route handlers, Bun, Deno, Workers. */
  readonly fetchHandler = (request: Request): Promise<Response> =>
    fetchHandler(this, request, this.#bodyAlreadyRead);

  /** For node:http and Express: reads the raw body from the request stream itself. */
  readonly nodeHandler = (req: NodeRequest, res: NodeResponse): void =>
    nodeHandler(this.#answer, this.maxBodyBytes, req, res, this.#bodyAlreadyRead);

  /**
   * The sender sees only a 500 (and re-delivers): the developer hears of it through `body_already_read`
   * or, when nobody listens, one process warning per receiver.
   */
  readonly #bodyAlreadyRead = (message: string): string => {
    if (!this.#warned && !this.#listeners.count('body_already_read')) {
      this.#warned = true;
      warn(message);
    }
    this.#notify('body_already_read', { status: 500, message });
    return message;
  };
}
