import type { Scheduler } from './clock.js';
import type { AttemptPoster, DeliveryResponse, NoAnswer } from './delivery-timeout.js';
import { serviceSignature } from './signature.js';

/** Waits before each re-delivery after a non-200 answer: 10 s, 20 s, 40 s, 80 s, 160 s. */
export const RETRY_DELAYS_MS = [10_000, 20_000, 40_000, 80_000, 160_000] as const;

/** The event envelope of SPEC.md, Events. */
export interface SandboxEvent {
  /** Event id (`evt_…`); the same on every re-delivery. */
  id: string;
  /** Event type (`call.incoming`, `call.answered`, …). */
  type: string;
  /** ISO 8601 time of the event, on the sandbox clock. */
  created_at: string;
  /** The event's payload (`data.call` for call events). */
  data: Record<string, unknown>;
}

/** One POST the sandbox made to a webhook or callback URL. */
export interface Delivery {
  /** The event delivered. */
  event: SandboxEvent;
  /** The webhook or `callback_url` it was posted to. */
  url: string;
  /** The registration it was sent for (`wh_…`); `null` for a `callback_url` notification. */
  webhookId: string | null;
  /** 1 for the first try, 2 for the first re-delivery, … */
  attempt: number;
  /** The receiver's HTTP status, or null when no answer came. */
  status: number | null;
  /** The exact body sent. */
  body: string;
  /** The Service-Signature header sent. */
  signature: string;
  /** Sandbox time of the attempt, ms since the epoch. */
  at: number;
  /** Wall-clock ms from sending to the answer read (or to giving up). */
  latencyMs: number;
  /** What the receiver answered (headers, the first 4 KiB of its body), or null when no answer came. */
  response: DeliveryResponse | null;
  /** Why no answer came (`refused`, `timed out`, `reset`, `failed`) and the error's message; null after an answer. */
  noAnswer: NoAnswer | null;
  /** True for an attempt asked for by hand (the console's resend): it schedules no re-delivery. */
  resent: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** True for http(s) URLs on this machine: the sandbox never posts anywhere else. */
export function isLoopbackUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK.has(url.hostname);
  } catch {
    return false;
  }
}

/** Hears each attempt once made, with the sandbox time of its re-delivery (null: none will follow). */
export type AttemptListener = (delivery: Delivery, nextAttemptAt: number | null) => void;

/** Where an event goes: a URL, for one registration (two may share a URL) or a call's callback. */
interface Target {
  url: string;
  secret: string;
  /** `null` for a `callback_url` notification. */
  webhookId: string | null;
}

interface Retry extends Target {
  event: SandboxEvent;
  attempt: number;
}

/** An event sent to a target, as kept for a resend: attempts made, the latest status. */
interface Sent extends Target {
  event: SandboxEvent;
  attempts: number;
  /** The latest answer's status (null: none, or still in flight). */
  status: number | null;
  inFlight: number;
}

/** One key per event and target: two registrations of one URL are two rows, two schedules. */
const keyOf = (eventId: string, { url, webhookId }: Omit<Target, 'secret'>) =>
  `${eventId} ${url} ${webhookId ?? 'callback'}`;

/** Whether `target` is `url`, and registration `webhookId` when one is named (undefined: any at `url`). */
const aimsAt = (target: Target, url: string, webhookId: string | null | undefined) =>
  target.url === url && (webhookId === undefined || target.webhookId === webhookId);

/** How many (event, URL) pairs are kept for a resend; older ones can no longer be resent. */
const KEPT_SENT = 1000;
/** How many attempts `deliveries` keeps: a CLI sandbox may run for days. */
const KEPT_DELIVERIES = 10_000;

/** Posts signed events and re-delivers them on the sandbox clock until a 200 or the retries run out. */
export class Deliverer {
  readonly deliveries: Delivery[] = [];
  readonly #pending = new Set<Promise<void>>();
  /** Re-deliveries waiting for their time (two webhooks may share a URL: each has its own). */
  readonly #retries = new Set<Retry>();
  /** By {@link keyOf}, oldest first. */
  readonly #sent = new Map<string, Sent>();

  constructor(
    private readonly clock: Scheduler,
    private readonly post: AttemptPoster,
    private readonly onAttempt: AttemptListener = () => {},
    private readonly keptDeliveries = KEPT_DELIVERIES,
  ) {}

  /**
   * Makes the waiting re-deliveries of `eventId` to `url` now — for registration `webhookId`
   * only when given (`null`: the callback), else for every one at that URL; false when none is waiting.
   */
  redeliverNow(eventId: string, url: string, webhookId?: string | null): boolean {
    const waiting = [...this.#retries].filter(
      (retry) => retry.event.id === eventId && aimsAt(retry, url, webhookId),
    );
    for (const retry of waiting) {
      this.#retries.delete(retry);
      this.#attempt(retry.event, retry, retry.attempt);
    }
    return waiting.length > 0;
  }

  /** Sends `event` to `url`, for registration `webhookId` (`null`: a call's `callback_url`). */
  send(event: SandboxEvent, url: string, secret: string, webhookId: string | null = null): void {
    const target = { url, secret, webhookId };
    const key = keyOf(event.id, target);
    this.#sent.delete(key);
    this.#sent.set(key, { event, ...target, attempts: 0, status: null, inFlight: 0 });
    // Bounded: a long-running CLI sandbox keeps the latest pairs only.
    if (this.#sent.size > KEPT_SENT) this.#sent.delete(this.#sent.keys().next().value ?? '');
    this.#attempt(event, target, 1);
  }

  /**
   * Sends `eventId` to `url` (for `webhookId` only, when given) again now, whatever became of it:
   * a waiting re-delivery is made now (its schedule goes on), otherwise — delivered, or
   * re-deliveries exhausted — one more attempt is made by hand, numbered after the last, that
   * schedules none. False when it is not known.
   */
  resend(eventId: string, url: string, webhookId?: string | null): boolean {
    if (this.redeliverNow(eventId, url, webhookId)) return true;
    const kept = [...this.#sent.values()].filter(
      (sent) => sent.event.id === eventId && aimsAt(sent, url, webhookId),
    );
    for (const sent of kept) this.#attempt(sent.event, sent, sent.attempts + 1, true);
    return kept.length > 0;
  }

  /** Resends every (event, target) whose latest answer was not a 200 and that has none in flight; the count. */
  resendFailed(): number {
    const failed = [...this.#sent.values()].filter((sent) => sent.status !== 200 && sent.inFlight === 0);
    for (const sent of failed) this.resend(sent.event.id, sent.url, sent.webhookId);
    return failed.length;
  }

  /** Resolves once no delivery is in flight (timers waiting for re-delivery do not count). */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
  }

  #attempt(event: SandboxEvent, target: Target, attempt: number, resent = false): void {
    const sent = this.#sent.get(keyOf(event.id, target));
    if (sent) {
      sent.attempts = Math.max(sent.attempts, attempt);
      sent.inFlight++;
    }
    const run = this.#post(event, target, attempt, resent).finally(() => this.#pending.delete(run));
    this.#pending.add(run);
  }

  async #post(event: SandboxEvent, target: Target, attempt: number, resent: boolean) {
    const { url, secret, webhookId } = target;
    const body = JSON.stringify(event);
    const at = this.clock.now();
    const signature = await serviceSignature(body, secret, Math.floor(at / 1000));
    const started = performance.now();
    const outcome = await this.post(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'service-signature': signature },
      body,
    });
    const latencyMs = Math.round(performance.now() - started);
    const { status } = outcome;
    const delivery = { event, url, webhookId, attempt, body, signature, at, latencyMs, ...outcome, resent };
    this.deliveries.push(delivery);
    if (this.deliveries.length > this.keptDeliveries) this.deliveries.shift();
    const sent = this.#sent.get(keyOf(event.id, target));
    if (sent) {
      sent.inFlight--;
      sent.status = status;
    }
    const delay = RETRY_DELAYS_MS[attempt - 1];
    if (status === 200 || delay === undefined || resent) {
      this.onAttempt(delivery, null);
      return;
    }
    const retry = { event, ...target, attempt: attempt + 1 };
    this.#retries.add(retry);
    this.clock.schedule(delay, () => {
      // Made early by redeliverNow, the re-delivery is no longer this timer's to make.
      if (this.#retries.delete(retry)) this.#attempt(event, target, attempt + 1);
    });
    this.onAttempt(delivery, this.clock.now() + delay);
  }
}
