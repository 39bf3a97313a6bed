import type { CallStatus } from './calls.js';
import type { Delivery } from './delivery.js';
import type { FaultKind } from './faults.js';

/** Who made a request, as the console and the CLI log may show it: never a secret. */
export interface PrincipalView {
  /** The client id (v2), or `apiKeys[i]` (v1: the key itself is a secret). */
  label: string;
  /** `starter`, `pro`, `enterprise`, or `N/min` for a chosen rate. */
  plan: string;
}

/** A request the sandbox answered. */
export interface RequestRecord {
  kind: 'request';
  seq: number;
  /** Sandbox time, ms since the epoch. */
  at: number;
  method: string;
  /** Path and query string. */
  path: string;
  /** `null` when no answer was sent (a fault dropped the connection, or the request was aborted). */
  status: number | null;
  /** The injected fault that hit this request, or `null`. */
  fault: { id: string; kind: FaultKind } | null;
  /** `null` when no credential was accepted (401, the token endpoint). */
  principal: PrincipalView | null;
  /** The principal's budget right after this request: counted in the current 60 s window, and the plan's limit. */
  rate: { used: number; limit: number } | null;
}

/** One webhook or callback delivery attempt. */
export interface DeliveryRecord {
  kind: 'delivery';
  seq: number;
  at: number;
  eventId: string;
  type: string;
  url: string;
  /** The registration it was sent for (`wh_…`); `null` for a `callback_url` notification. */
  webhookId: string | null;
  attempt: number;
  /** The receiver's status, `null` when no answer came. */
  status: number | null;
  /** The exact body sent. */
  body: string;
  /** The `Service-Signature` header sent. */
  signature: string;
  /** When the next re-delivery is due (sandbox time), `null` when none will be made. */
  nextAttemptAt: number | null;
  /** Wall-clock ms the receiver took to answer (or the attempt to fail). */
  latencyMs: number;
  /** The receiver's headers and the start of its body; `null` when no answer came. */
  response: Delivery['response'];
  /** Why no answer came; `null` after an answer. */
  noAnswer: Delivery['noAnswer'];
  /** Sent again by hand from the console. */
  resent: boolean;
}

/** A call's status change (`previous` null: the call was created). */
export interface CallRecord {
  kind: 'call';
  seq: number;
  at: number;
  callId: string;
  direction: 'inbound' | 'outbound';
  from: string;
  to: string;
  status: CallStatus;
  previous: CallStatus | null;
}

export type ActivityRecord = RequestRecord | DeliveryRecord | CallRecord;

type Kind = ActivityRecord['kind'];
type Unsequenced<R> = R extends ActivityRecord ? Omit<R, 'seq'> : never;

/** How many records of each kind are kept for a console that connects later. */
const KEPT: Record<Kind, number> = { request: 500, delivery: 500, call: 2000 };

/**
 * What happens in the sandbox, for the console and the CLI's log: the latest records of each kind
 * (bounded, oldest dropped first) and listeners told of each new one.
 */
export class ActivityFeed {
  #seq = 1;
  readonly #kept: { [K in Kind]: Extract<ActivityRecord, { kind: K }>[] } = {
    request: [],
    delivery: [],
    call: [],
  };
  readonly #listeners = new Set<(record: ActivityRecord) => void>();

  push(unsequenced: Unsequenced<ActivityRecord>): void {
    const record = { ...unsequenced, seq: this.#seq++ } as ActivityRecord;
    const kept: ActivityRecord[] = this.#kept[record.kind];
    kept.push(record);
    if (kept.length > KEPT[record.kind]) kept.shift();
    for (const listener of this.#listeners) {
      // A listener (a console tab, the CLI log) must never break the request or delivery it hears of.
      try {
        listener(record);
      } catch {}
    }
  }

  /** Calls `listener` with every new record; returns the function that stops it. */
  subscribe(listener: (record: ActivityRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The records kept, oldest first, by kind. */
  recent(): { requests: RequestRecord[]; deliveries: DeliveryRecord[]; calls: CallRecord[] } {
    return {
      requests: [...this.#kept.request],
      deliveries: [...this.#kept.delivery],
      calls: [...this.#kept.call],
    };
  }
}
