/**
 * OpenTelemetry spans of a client's calls (API.md, Tracing; docs/observability.md), made through the
 * user's own `Tracer`: only OpenTelemetry's types are imported, so no bundle holds or resolves its
 * code. Loaded by `import()` (trace-methods.ts), for a client given a tracer only.
 *
 * - An operation (`calls.create`) is a span from the method's call until its promise settles.
 * - Each HTTP attempt under it is a `CLIENT` span with the stable HTTP client attributes, named in
 *   the attempt's `traceparent` header.
 * - Waits (pacing, a 429's pause, the back-off before a retry) are events on the operation span.
 */
import type { TraceContext as Context, TraceSpan as Span, Tracer } from '../../shared/tracer.js';
import type { TracedCall } from './traced-call.js';

// Where @opentelemetry/api keeps a context's span: its `createContextKey` is `Symbol.for(description)`,
// so every copy of the API, and the SDK behind the user's tracer, reads this key.
const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');

/**
 * A context holding `values`, immutable as the API's own. The attempts' parent is handed to
 * `startSpan` this way rather than through the active context, which a browser without a context
 * manager does not carry across `await`.
 */
function contextOf(values: Record<symbol, unknown>): Context {
  return {
    getValue: (key) => values[key],
    setValue: (key, value) => contextOf({ ...values, [key]: value }),
    deleteValue: (key) => contextOf({ ...values, [key]: undefined }),
  };
}

/** Ends `span`, as failed with `errorType` when one is given. */
function end(span: Span, errorType?: string): void {
  if (errorType !== undefined) span.setAttribute('error.type', errorType).setStatus({ code: 2 });
  span.end();
}

/**
 * Runs `run` (one SDK method) as the traced call `name`, handed to it: a span that ends when the
 * promise `run` returns settles, `ERROR` with the error's class as `error.type` when it rejects.
 * Returns that same promise (a `PagePromise` stays iterable).
 */
export function traced<R extends PromiseLike<unknown>>(
  tracer: Tracer,
  name: string,
  run: (traced: TracedCall) => R,
): R {
  // Its parent: the user's active span, if any.
  const span = tracer.startSpan(name);
  const context = contextOf({ [SPAN_KEY]: span });
  const call: TracedCall = {
    span,
    startAttempt(method, url, resends, headers) {
      const { hostname, port, protocol } = new URL(url);
      const attempt = tracer.startSpan(
        method,
        {
          kind: 2,
          // `url` is the URL events show: no credential, no pre-signed query. An attribute left
          // undefined is not recorded: resend_count is absent on the first attempt.
          attributes: {
            'http.request.method': method,
            'url.full': url,
            'server.address': hostname,
            'server.port': Number(port) || (protocol === 'https:' ? 443 : 80),
            'http.request.resend_count': resends || undefined,
          },
        },
        context,
      );
      const { traceId, spanId, traceFlags, traceState } = attempt.spanContext();
      // A no-op tracer's span has the invalid all-zero trace id, which must not be sent.
      if (/[^0]/.test(traceId)) {
        headers.traceparent = `00-${traceId}-${spanId}-0${traceFlags & 1}`;
        const state = traceState?.serialize();
        if (state) headers.tracestate = state;
      }
      return attempt;
    },
    endAttempt(attempt, status, errorType) {
      if (status !== undefined) attempt.setAttribute('http.response.status_code', status);
      end(attempt, status !== undefined && status > 399 ? String(status) : errorType);
    },
    waited(reason, ms) {
      span.addEvent('telephony.wait', { 'telephony.wait.reason': reason, 'telephony.wait.ms': ms });
    },
    again: (next) => traced(tracer, name, next),
  };
  const result = run(call);
  result.then(
    () => end(span),
    (error: Error | undefined) => end(span, error?.name ?? 'Error'),
  );
  return result;
}
