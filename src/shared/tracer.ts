/**
 * The parts of OpenTelemetry's API that the SDK calls, declared here so that the SDK's types need no
 * `@opentelemetry/api` installed: a `Tracer` from `@opentelemetry/api` (`trace.getTracer('my-app')`)
 * is one of these. The SDK imports nothing of OpenTelemetry, code or types (API.md, Tracing).
 */

/** An attribute's value, as OpenTelemetry records it. */
export type TraceAttributeValue = string | number | boolean;

/** OpenTelemetry's `Context`: immutable values by key, the active span among them. */
export interface TraceContext {
  /** The value under `key`. */
  getValue(key: symbol): unknown;
  /** A new context with `value` under `key`. */
  setValue(key: symbol, value: unknown): TraceContext;
  /** A new context without `key`. */
  deleteValue(key: symbol): TraceContext;
}

/** OpenTelemetry's `Span`, as far as the SDK uses it. */
export interface TraceSpan {
  /** The ids that name the span in a `traceparent` header, and the vendors' `tracestate`. */
  spanContext(): {
    /** 32 hex digits; all zeros for a span that records nothing. */
    traceId: string;
    /** 16 hex digits. */
    spanId: string;
    /** Bit 0: sampled. */
    traceFlags: number;
    /** The vendors' trace state. */
    traceState?:
      | {
          /** The `tracestate` header's value. */
          serialize(): string;
        }
      | undefined;
  };
  /** Records one attribute. */
  setAttribute(key: string, value: TraceAttributeValue): TraceSpan;
  /** Records attributes; an `undefined` one is left out. */
  setAttributes(attributes: Record<string, TraceAttributeValue | undefined>): TraceSpan;
  /** Records an event with its attributes. */
  addEvent(name: string, attributes?: Record<string, TraceAttributeValue | undefined>): TraceSpan;
  /** Sets the status: `code` 2 is ERROR. */
  setStatus(status: { code: number; message?: string }): TraceSpan;
  /** Renames the span. */
  updateName(name: string): TraceSpan;
  /** Ends the span. */
  end(): void;
}

/** Options of a span the SDK starts. */
export interface TraceSpanOptions {
  /** `2` for an HTTP attempt (`CLIENT`), `1` for a webhook delivery (`SERVER`). */
  kind?: number;
  /** Attributes recorded at the start; an `undefined` one is left out. */
  attributes?: Record<string, TraceAttributeValue | undefined>;
}

/** OpenTelemetry's `Tracer`, as far as the SDK uses it. */
export interface Tracer {
  /** Starts a span, a child of the span in `context` (default: the active one). */
  startSpan(name: string, options?: TraceSpanOptions, context?: TraceContext): TraceSpan;
  /**
   * Starts a span and runs `fn` with it as the active span.
   * @typeParam F the function run with the span
   */
  startActiveSpan<F extends (span: TraceSpan) => unknown>(
    name: string,
    options: TraceSpanOptions,
    fn: F,
  ): ReturnType<F>;
}
