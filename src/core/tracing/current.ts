/**
 * What the request path knows of tracing: the traced operation (made by spans.ts, which a browser
 * loads only for a client with a tracer) and the slot that hands it from a method to the transport.
 * A client without a tracer runs none of tracing but one read of {@link currentTracedCall} per call.
 */
import type { TraceSpan as Span } from '../../shared/tracer.js';

/** One traced SDK call (`calls.create`), as tracing sees it (not `operation.ts`, which runs one): its span, and what its attempts and waits report through. */
export interface TracedCall {
  readonly span: Span;
  /** Starts an attempt's `CLIENT` span and names it in `headers` (`traceparent`). */
  startAttempt(method: string, url: string, resends: number, headers: Record<string, string>): Span;
  /** Ends an attempt's span with its answer's status, or with the error class of an attempt that got none. */
  endAttempt(span: Span, status: number | undefined, errorType?: string): void;
  /** A wait, as an event on the operation's span. */
  waited(reason: 'pacing' | 'paused' | 'retry', ms: number): void;
  /** `run` as a new operation of the same name (a list's next page). */
  again<R extends PromiseLike<unknown>>(run: () => R): R;
}

/**
 * The operation whose method is running, set only while it runs synchronously: each method reaches
 * the transport's `send` before its first `await`, and `send` reads it as it starts.
 */
let current: TracedCall | undefined;

export const currentTracedCall = (): TracedCall | undefined => current;

/** Runs `run` with `op` as the current operation; returns what it returns. */
export function runAs<R>(op: TracedCall, run: () => R): R {
  const outer = current;
  current = op;
  try {
    return run();
  } finally {
    current = outer;
  }
}
