import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll } from 'vitest';

const KINDS = ['INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];

/**
 * The real OpenTelemetry SDK, as a user wires it: a tracer whose finished spans an in-memory
 * exporter keeps, and (for the file) the AsyncLocalStorage context manager NodeSDK registers.
 */
export function otel() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer('test'), spans: () => exporter.getFinishedSpans() };
}

/** Registers the AsyncLocalStorage context manager for the test file (NodeSDK's default). */
export function asyncContext(): void {
  const manager = new AsyncLocalStorageContextManager();
  beforeAll(() => {
    context.setGlobalContextManager(manager.enable());
  });
  afterAll(() => {
    manager.disable();
    context.disable();
  });
}

const line = (span: ReadableSpan): string => {
  const attributes = Object.entries(span.attributes).map(([key, value]) => `${key}=${String(value)}`);
  const status = span.status.code === 2 ? ' ERROR' : '';
  return `${span.name} [${KINDS[span.kind]}${status}] ${attributes.join(' ')}`.trimEnd();
};

/**
 * Finished spans as an indented text tree (children under their parent, siblings by start time),
 * each span's events under it as `· name key=value …`: what docs/observability.md shows.
 */
export function spanTree(spans: readonly ReadableSpan[]): string {
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  const children = (parent: string | undefined) =>
    spans
      .filter((span) => {
        const id = span.parentSpanContext?.spanId;
        return parent === undefined ? id === undefined || !ids.has(id) : id === parent;
      })
      .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
  const lines: string[] = [];
  const walk = (span: ReadableSpan, depth: number) => {
    const indent = '  '.repeat(depth);
    lines.push(indent + line(span));
    for (const event of span.events) {
      const attributes = Object.entries(event.attributes ?? {}).map(([k, v]) => `${k}=${String(v)}`);
      lines.push(`${indent}  · ${event.name} ${attributes.join(' ')}`.trimEnd());
    }
    for (const child of children(span.spanContext().spanId)) walk(child, depth + 1);
  };
  for (const root of children(undefined)) walk(root, 0);
  return lines.join('\n');
}

/** The `traceparent` naming `span` (sampled). */
export const traceparentOf = (span: ReadableSpan): string => {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-0${traceFlags & 1}`;
};

/** Each attempt span as the names from its root down, ending with its URL's path and query. */
export function attemptPaths(spans: readonly ReadableSpan[]): Set<string> {
  const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
  const pathOf = (span: ReadableSpan): string[] => {
    const parent = span.parentSpanContext && byId.get(span.parentSpanContext.spanId);
    return [...(parent ? pathOf(parent) : []), span.name];
  };
  return new Set(
    spans
      .filter((span) => span.name === 'GET')
      .map((span) => {
        const url = new URL(String(span.attributes['url.full']));
        return [...pathOf(span), url.pathname + url.search].join(' > ');
      }),
  );
}
