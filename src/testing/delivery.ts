import type { Scheduler } from './clock.js';
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

interface Retry {
  event: SandboxEvent;
  url: string;
  secret: string;
  attempt: number;
}

/** Posts signed events and re-delivers them on the sandbox clock until a 200 or the retries run out. */
export class Deliverer {
  readonly deliveries: Delivery[] = [];
  readonly #pending = new Set<Promise<void>>();
  /** Re-deliveries waiting for their time (two webhooks may share a URL: each has its own). */
  readonly #retries = new Set<Retry>();

  constructor(
    private readonly clock: Scheduler,
    private readonly post: typeof fetch,
    private readonly onAttempt: AttemptListener = () => {},
  ) {}

  /** Makes the waiting re-deliveries of `eventId` to `url` now; false when none is waiting. */
  redeliverNow(eventId: string, url: string): boolean {
    const waiting = [...this.#retries].filter((retry) => retry.event.id === eventId && retry.url === url);
    for (const retry of waiting) {
      this.#retries.delete(retry);
      this.#attempt(retry.event, retry.url, retry.secret, retry.attempt);
    }
    return waiting.length > 0;
  }

  send(event: SandboxEvent, url: string, secret: string): void {
    this.#attempt(event, url, secret, 1);
  }

  /** Resolves once no delivery is in flight (timers waiting for re-delivery do not count). */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
  }

  #attempt(event: SandboxEvent, url: string, secret: string, attempt: number): void {
    const run = this.#post(event, url, secret, attempt).finally(() => this.#pending.delete(run));
    this.#pending.add(run);
  }

  async #post(event: SandboxEvent, url: string, secret: string, attempt: number): Promise<void> {
    const body = JSON.stringify(event);
    const at = this.clock.now();
    const signature = await serviceSignature(body, secret, Math.floor(at / 1000));
    let status: number | null = null;
    try {
      const response = await this.post(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'service-signature': signature },
        body,
      });
      status = response.status;
      await response.body?.cancel();
    } catch {
      status = null;
    }
    const delivery = { event, url, attempt, status, body, signature, at };
    this.deliveries.push(delivery);
    const delay = RETRY_DELAYS_MS[attempt - 1];
    if (status === 200 || delay === undefined) {
      this.onAttempt(delivery, null);
      return;
    }
    const retry = { event, url, secret, attempt: attempt + 1 };
    this.#retries.add(retry);
    this.clock.schedule(delay, () => {
      // Made early by redeliverNow, the re-delivery is no longer this timer's to make.
      if (this.#retries.delete(retry)) this.#attempt(event, url, secret, attempt + 1);
    });
    this.onAttempt(delivery, this.clock.now() + delay);
  }
}
