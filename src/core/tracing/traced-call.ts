/**
 * What the request path knows of tracing: the traced call (made by spans.ts, which a browser loads
 * only for a client with a tracer), and a transport bound to one, through which that call's
 * requests are sent. A call is bound explicitly, never read from a module variable: a method may
 * await before it sends, and calls run concurrently.
 */
import type { TraceSpan as Span } from '../../shared/tracer.js';
import type { APIPromise, CheckingTransport } from '../response/api-promise.js';
import type { RawRequest, RequestOptions, Transport } from '../types.js';

/** One traced SDK call (`calls.create`), as tracing sees it (not `operation.ts`, which runs one): its span, and what its attempts and waits report through. */
export interface TracedCall {
  readonly span: Span;
  /** Starts an attempt's `CLIENT` span and names it in `headers` (`traceparent`). */
  startAttempt(method: string, url: string, resends: number, headers: Record<string, string>): Span;
  /** Ends an attempt's span with its answer's status, or with the error class of an attempt that got none. */
  endAttempt(span: Span, status: number | undefined, errorType?: string): void;
  /** A wait, as an event on the call's span. */
  waited(reason: 'pacing' | 'paused' | 'retry', ms: number): void;
  /** `run` as a new traced call of the same name (a list's next page), handed that call. */
  again<R extends PromiseLike<unknown>>(run: (traced: TracedCall) => R): R;
}

/** The client's transport: a request may name the traced call whose attempts it is. */
export interface TracingTransport extends CheckingTransport {
  send(request: RawRequest, options?: RequestOptions, traced?: TracedCall): APIPromise<unknown>;
  sendChecked<R>(
    request: RawRequest,
    options: RequestOptions | undefined,
    check: (body: unknown) => R,
    traced?: TracedCall,
  ): APIPromise<R>;
  download(request: RawRequest, options?: RequestOptions, traced?: TracedCall): APIPromise<Response>;
}

/** The client's transport, bound to one traced call: what a traced method sends through. */
export class TracedTransport implements CheckingTransport {
  readonly #inner: TracingTransport;
  readonly #traced: TracedCall;

  constructor(inner: TracingTransport, traced: TracedCall) {
    this.#inner = inner;
    this.#traced = traced;
  }

  send(request: RawRequest, options?: RequestOptions): APIPromise<unknown> {
    return this.#inner.send(request, options, this.#traced);
  }

  sendChecked<R>(
    request: RawRequest,
    options: RequestOptions | undefined,
    check: (body: unknown) => R,
  ): APIPromise<R> {
    return this.#inner.sendChecked(request, options, check, this.#traced);
  }

  download(request: RawRequest, options?: RequestOptions): APIPromise<Response> {
    return this.#inner.download(request, options, this.#traced);
  }

  /** `run` as a new traced call of the same name, handed the transport bound to it. */
  again<R extends PromiseLike<unknown>>(run: (transport: Transport) => R): R {
    return this.#traced.again((next) => run(new TracedTransport(this.#inner, next)));
  }
}

/**
 * A list's next page: under a traced call, a traced call of its own named as the list's first
 * (`calls.listRecent`), `run` handed the transport bound to it; untraced, `run` with `transport`.
 */
export function nextCall<R extends PromiseLike<unknown>>(
  transport: Transport,
  run: (transport: Transport) => R,
): R {
  return transport instanceof TracedTransport ? transport.again(run) : run(transport);
}
