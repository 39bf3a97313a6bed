import type { Tracer } from '../shared/tracer.js';
import type { DedupStore } from './dedup.js';
import type { VerifyWebhookOptions } from './verify.js';

/** Options of {@link WebhookReceiver}. */
export interface WebhookReceiverOptions extends VerifyWebhookOptions {
  /** The webhook secret, or several during a rotation. */
  secret: string | readonly string[];
  /** Where processed event ids are remembered. Default: a {@link MemoryDedupStore}. */
  store?: DedupStore;
  /**
   * How long a processed id is remembered, in seconds. Default 86 400. Keep it at least as long as
   * the service keeps re-delivering: a replay after it is forgotten runs the handlers again (unless
   * `maxEventAge`, at most this, refuses it).
   */
  dedupTtl?: number;
  /**
   * Longest time, in seconds, to process one delivery (the store and every handler) before answering
   * 500 `handler_error`, so the service is not kept waiting. Default 30. A handler still running then
   * is not stopped, and keeps its event's claim until it ends: a re-delivery meanwhile answers 409
   * `in_progress` and runs nothing. The claim's lease is this (an hour when Infinity), renewed while
   * the handlers run.
   */
  handlerTimeout?: number;
  /**
   * Oldest event accepted, in seconds, by its signed `created_at`; an older one (or one without a
   * parseable `created_at`) is refused 400 `event_too_old`. The signature does not cover the header's
   * `t`, so without this a captured delivery replays once the store has forgotten its id. Default
   * `dedupTtl`; longer is refused at construction (that replay window would reopen).
   */
  maxEventAge?: number;
  /** Largest body read, in bytes, by `nodeHandler` and `fetchHandler`; a larger one is answered 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * An OpenTelemetry `Tracer`: each delivery becomes a `SERVER` span `webhook <event type>` (`webhook`
   * when it does not verify) with its id, type, status and outcome (docs/observability.md). Nothing of
   * `@opentelemetry/api` is imported (`Tracer` here is the part of its API the SDK calls). Default: no spans.
   */
  tracer?: Tracer;
}
