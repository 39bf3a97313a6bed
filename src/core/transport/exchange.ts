import type { TraceSpan as Span } from '../../shared/tracer.js';
import type { Credential } from '../auth/credentials.js';
import type { ApiVersion } from '../errors.js';
import type { Operation } from '../tracing/current.js';
import type { HttpMethod } from '../types.js';
import type { Link } from './signals.js';

/** What a call is, fixed before its first attempt. */
export interface ExchangeCall {
  method: HttpMethod;
  url: string;
  /** The URL events show: `url`, but without the query string of an absolute (pre-signed) URL. */
  shownUrl: string;
  operation: string;
  /** `undefined` for the token request, which carries its credential in the form. */
  credential: Credential | undefined;
  /** Values of the request that no error may show (a webhook signing secret). */
  secrets: ReadonlyArray<string | undefined>;
  /** The API version, whose rate budget the call uses; `undefined` for the token request, which is not paced. */
  version: ApiVersion | undefined;
  /** The traced operation whose attempt spans this call's attempts are; `undefined` without a tracer. */
  op: Operation | undefined;
  headers: Record<string, string>;
  /** The body as sent: JSON, or the token request's form. */
  body: string | undefined;
}

/** The client's settings under the call's own options. */
export interface ExchangeSettings {
  /** Only when the caller passed a signal: a signal given to ky costs an `AbortSignal.any` per call. */
  link: Link | undefined;
  timeout: number;
  maxRetries: number;
  maxRetryAfterMs: number;
  /** Longest body read (`maxResponseBytes`). */
  maxResponseBytes: number;
}

/**
 * One logical request while ky runs its attempts — what the hooks and the retry decision share,
 * reached through ky's `context`. It changes only through its transitions: {@link startAttempt},
 * {@link retryAfter} / {@link repeatAfter401} (asked by retry.ts) and {@link beginRetry}.
 */
export class Exchange implements ExchangeCall, ExchangeSettings {
  declare readonly method: HttpMethod;
  declare readonly url: string;
  declare readonly shownUrl: string;
  declare readonly operation: string;
  declare readonly credential: Credential | undefined;
  declare readonly secrets: ReadonlyArray<string | undefined>;
  declare readonly version: ApiVersion | undefined;
  declare readonly link: Link | undefined;
  declare readonly timeout: number;
  declare readonly maxRetries: number;
  declare readonly maxRetryAfterMs: number;
  declare readonly maxResponseBytes: number;
  declare readonly op: Operation | undefined;
  declare readonly headers: Record<string, string>;
  declare readonly body: string | undefined;
  /** POSTs are not, except the token request (see retry.ts). */
  readonly idempotent: boolean;
  /** The attempt under way, 0 for the first: every retry and the one repeat after a 401 add one. */
  #attempt = 0;
  #refreshed = false;
  #bearer: string | undefined;
  /** When the current attempt's fetch started (wall clock: the deadline runs on real timers). */
  #startedAt = 0;
  #wait = { delayMs: 0, reason: '' };
  #mayHaveArrived = false;
  /** The current attempt's span, from its start until it is ended (traced calls only). */
  span: Span | undefined;

  // Two objects, not one spread into a third: on Node 20, properties added to a spread's copy make
  // V8 build new hidden classes on every call (≈ 5–30 µs a call, measured).
  constructor(call: ExchangeCall, settings: ExchangeSettings) {
    Object.assign(this, call, settings);
    this.idempotent = call.method !== 'POST' || call.credential === undefined;
  }

  get attempt(): number {
    return this.#attempt;
  }

  /** Retries made for the policy's reasons: the one repeat after a 401 is not among them. */
  get retries(): number {
    return this.#attempt - (this.#refreshed ? 1 : 0);
  }

  /** The bearer value the current attempt carries. */
  get bearer(): string | undefined {
    return this.#bearer;
  }

  get startedAt(): number {
    return this.#startedAt;
  }

  /** The wait and its reason, decided for the retry ky is about to make. */
  get wait(): { readonly delayMs: number; readonly reason: string } {
    return this.#wait;
  }

  /** The call's own signal, aborted with the caller's. */
  get signal(): AbortSignal | undefined {
    return this.link?.controller.signal;
  }

  /** An attempt leaves now, carrying `bearer` (when it has a credential). */
  startAttempt(bearer: string | undefined): void {
    if (bearer !== undefined) this.#bearer = bearer;
    this.#startedAt = Date.now();
  }

  /** Whether an attempt before this one may have reached the service and acted, its answer lost. */
  get mayHaveArrived(): boolean {
    return this.#mayHaveArrived;
  }

  /**
   * The retry decision said yes: wait `delayMs` before the next attempt.
   * @param mayHaveArrived the failed attempt may have reached the service (a timeout, a reset, a 5xx)
   */
  retryAfter(delayMs: number, reason: string, mayHaveArrived: boolean): void {
    this.#wait = { delayMs, reason };
    if (mayHaveArrived) this.#mayHaveArrived = true;
  }

  /**
   * A 401: once per call, the credential drops the bearer it gave. When it can give another (`true`,
   * or a promise of it once a shared copy is dropped too), the attempt is repeated at once.
   */
  repeatAfter401(): boolean | Promise<boolean> {
    // No bearer: the token request, which carries its credential in the form.
    if (this.#refreshed || this.#bearer === undefined) return false;
    const again = this.credential?.invalidate(this.#bearer) ?? false;
    if (again !== false) {
      this.#refreshed = true;
      this.#wait = { delayMs: 0, reason: 'status 401' };
    }
    return again;
  }

  /** Ends the current attempt's span, if it has one still open (see {@link Operation.endAttempt}). */
  endSpan(status: number | undefined, errorType?: string): void {
    const span = this.span;
    this.span = undefined;
    if (span !== undefined) this.op?.endAttempt(span, status, errorType);
  }

  /** ky starts the retry decided: the next attempt is under way. */
  beginRetry(): void {
    this.#attempt++;
  }
}
