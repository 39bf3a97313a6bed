import type { Hooks } from 'ky';
import type { Clock } from '../clock.js';
import type { ClientEmitter } from '../events.js';
import { type Pacer, SAFETY_MS } from '../pacing/pacer.js';
import { type Exchange, exchangeOf, overBudget } from './exchange.js';
import { parseRetryAfter } from './retry.js';
import { abortable, userAbort } from './signals.js';

/**
 * What happens around each attempt ky makes (HttpTransport's hooks): the credential and the rate
 * budget before it, a 429's pause, the wait before a retry, and the `'request'`, `'response'`,
 * `'retry'` and `'throttle'` events.
 */
export class Attempts {
  readonly #clock: Clock;
  readonly #events: ClientEmitter;
  readonly #pacer: Pacer;

  /** ky's hooks, asked around every attempt. */
  readonly hooks: Hooks = {
    beforeRequest: [(request, options) => this.#beforeAttempt(exchangeOf(options), request)],
    beforeError: [
      (error) => {
        const exchange = exchangeOf(error.options);
        this.reportAnswer(exchange, error.response);
        this.#pauseOn429(exchange, error.response);
        return error;
      },
    ],
    beforeRetry: [({ options }) => this.#wait(exchangeOf(options))],
  };

  constructor(clock: Clock, events: ClientEmitter, pacer: Pacer) {
    this.#clock = clock;
    this.#events = events;
    this.#pacer = pacer;
  }

  #beforeAttempt(exchange: Exchange, request: Request): Promise<void> | undefined {
    const signal = exchange.link?.controller.signal;
    if (signal?.aborted) throw userAbort(signal);
    const bearer = exchange.credential?.bearer();
    if (typeof bearer === 'object')
      // A token being fetched is awaited; ky does not interrupt a hook on abort, so the wait watches
      // the call's signal itself. A bearer at hand (the usual case) costs no promise.
      return abortable(bearer, signal).then((value) => this.#paceThenStart(exchange, request, value));
    return this.#paceThenStart(exchange, request, bearer);
  }

  /** Waits for rate budget or a pause (the token first: a slot is taken only when it can be used at once). */
  #paceThenStart(
    exchange: Exchange,
    request: Request,
    bearer: string | undefined,
  ): Promise<void> | undefined {
    // The safety second is the client's own, not the service's: it does not count against the cap.
    const maxWaitMs = exchange.maxRetryAfterMs + SAFETY_MS;
    const reservation =
      exchange.scope === undefined ? undefined : this.#pacer.reserve(exchange.scope, maxWaitMs);
    if (reservation === undefined) return this.#startAttempt(exchange, request, bearer);
    const signal = exchange.link?.controller.signal;
    return abortable(reservation, signal).then(({ waitMs, reason }) => {
      if (waitMs > maxWaitMs) throw overBudget(exchange, waitMs);
      // No wait (the usual case): the attempt starts in this step, without one more promise.
      if (waitMs <= 0 || reason === undefined) return this.#startAttempt(exchange, request, bearer);
      this.#events.emit('throttle', { waitMs, reason });
      return this.#clock.sleep(waitMs, signal).then(
        () => this.#startAttempt(exchange, request, bearer),
        () => {
          throw userAbort(signal);
        },
      );
    });
  }

  /** A 429's `Retry-After` pauses the account for every client sharing the state. */
  #pauseOn429(exchange: Exchange, response: Response): void {
    if (response.status !== 429 || exchange.scope === undefined) return;
    const ms = parseRetryAfter(response.headers.get('retry-after'), this.#clock.now());
    if (ms !== undefined && ms > 0) void this.#pacer.pause(exchange.scope, ms);
  }

  #startAttempt(exchange: Exchange, request: Request, bearer: string | undefined): undefined {
    if (bearer !== undefined) {
      exchange.bearer = bearer;
      request.headers.set('authorization', `Bearer ${bearer}`);
    }
    exchange.startedAt = Date.now();
    this.#events.emit('request', { method: exchange.method, url: exchange.url, attempt: exchange.attempt });
    return undefined;
  }

  /** Emits `'response'` once per attempt that got an HTTP answer. */
  reportAnswer(exchange: Exchange, response: Response): void {
    if (exchange.reported === exchange.attempt) return;
    exchange.reported = exchange.attempt;
    this.#events.emit('response', {
      method: exchange.method,
      url: exchange.url,
      attempt: exchange.attempt,
      status: response.status,
      durationMs: Date.now() - exchange.startedAt,
    });
  }

  async #wait(exchange: Exchange): Promise<void> {
    const { method, url, attempt, delayMs, reason } = exchange;
    this.#events.emit('retry', { method, url, attempt, delayMs, reason });
    exchange.attempt++;
    if (delayMs === 0) return;
    const signal = exchange.link?.controller.signal;
    try {
      await this.#clock.sleep(delayMs, signal);
    } catch {
      throw userAbort(signal);
    }
  }
}
