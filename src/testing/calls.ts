import type { Scheduler } from './clock.js';
import { invalid, notFound } from './http.js';

/**
 * Call status values (SPEC.md, States and transitions).
 * @inline
 */
export type CallStatus =
  | 'initiating'
  | 'ringing'
  | 'answered'
  | 'missed'
  | 'voicemail'
  | 'completed'
  | 'transferring'
  | 'ended';

/** Timings of an outbound call's life on the sandbox clock. */
export const OUTBOUND_TIMINGS_MS = {
  /** ms after creation when an outbound call goes `initiating` → `ringing`. */
  ringing: 1_000,
  /** ms after creation when it goes `ringing` → `answered`. */
  answered: 5_000,
  /** ms after creation when it goes `answered` → `completed` (30 s of talk). */
  completed: 35_000,
} as const;
/** How long a transfer stays `transferring` before the call is answered at its new end. */
export const TRANSFER_MS = 2_000;

const IN_PROGRESS: readonly CallStatus[] = ['initiating', 'ringing', 'answered', 'transferring'];

interface Party {
  /** Phone number, E.164. */
  number: string;
  /** Display name; `''` when none. */
  name: string;
}

/** Everything the sandbox keeps about a call. */
export interface StoredCall {
  /** `call_000001`, `call_000002`, … */
  id: string;
  /** `inbound` (simulated) or `outbound` (placed through the API). */
  direction: 'inbound' | 'outbound';
  /** The caller, with its contact id when known. */
  from: Party & {
    /** The caller's contact, or `null`. */
    contact_id: string | null;
  };
  /** The called party, with the user it rings for when known. */
  to: Party & {
    /** The user the call rings for, or `null`. */
    user_id: string | null;
  };
  /** Current status. */
  status: CallStatus;
  startedAt: number;
  answeredAt: number | null;
  endedAt: number | null;
  record: boolean;
  notes: string;
  tags: string[];
  queue: {
    /** Queue id. */
    id: string;
    /** Queue name. */
    name: string;
    /** Time waited in the queue (always 0 in the sandbox). */
    wait_time: number;
  } | null;
  transferHistory: {
    /** Number or user id the call was transferred to. */
    to: string;
    /** `blind` or `attended`. */
    type: string;
    /** When the transfer was asked, ISO 8601 UTC. */
    at: string;
  }[];
  customData: Record<string, unknown>;
  callbackUrl: string | null;
  /** The `callback_url` of the latest transfer: notified once, when that transfer finishes. */
  transferCallbackUrl: string | null;
  userId: string | null;
}

/**
 * Notified on every status change, to turn it into webhook events and callback posts.
 * `firstAnswer` is true when this change answered the call for the first time.
 */
export type StatusListener = (call: StoredCall, previous: CallStatus | null, firstAnswer: boolean) => void;

/** A sandbox-clock time (ms) in the wire's form: ISO 8601 UTC. */
export const isoTime = (ms: number) => new Date(ms).toISOString();

/** The calls of the account and the transitions that move them. */
export class CallStore {
  readonly #calls = new Map<string, StoredCall>();
  #next = 1;

  constructor(
    private readonly clock: Scheduler,
    private readonly onStatus: StatusListener,
  ) {}

  all(): StoredCall[] {
    return [...this.#calls.values()];
  }

  get(id: string): StoredCall {
    const call = this.#calls.get(id);
    if (!call) throw notFound(`No call with id ${id}`);
    return call;
  }

  add(
    init: Omit<
      StoredCall,
      'id' | 'startedAt' | 'answeredAt' | 'endedAt' | 'transferHistory' | 'transferCallbackUrl'
    >,
  ): StoredCall {
    const call: StoredCall = {
      ...init,
      id: `call_${String(this.#next++).padStart(6, '0')}`,
      startedAt: this.clock.now(),
      answeredAt: null,
      endedAt: null,
      transferHistory: [],
      transferCallbackUrl: null,
    };
    this.#calls.set(call.id, call);
    this.onStatus(call, null, false);
    if (call.direction === 'outbound') {
      const { ringing, answered, completed } = OUTBOUND_TIMINGS_MS;
      this.#after(call, ringing, ['initiating'], 'ringing');
      this.#after(call, answered, ['ringing'], 'answered');
      // The far end hangs up at 35 s, also in the middle of a transfer (which then never finishes):
      // waiting for `answered` alone left a call transferring at that moment answered for ever.
      this.#after(call, completed, ['answered', 'transferring'], 'completed');
    }
    return call;
  }

  /** Moves a call; `answered` stamps the answer time, terminal states the end time. */
  move(call: StoredCall, status: CallStatus): void {
    const previous = call.status;
    call.status = status;
    const now = this.clock.now();
    const firstAnswer = status === 'answered' && call.answeredAt === null;
    if (firstAnswer) call.answeredAt = now;
    if (!IN_PROGRESS.includes(status)) call.endedAt = now;
    this.onStatus(call, previous, firstAnswer);
  }

  /** DELETE: only a call in progress can be ended; a finished one is `invalid_parameter`. */
  end(call: StoredCall): void {
    if (!IN_PROGRESS.includes(call.status)) throw invalid(`Call ${call.id} is not in progress`);
    this.move(call, 'ended');
  }

  /**
   * SPEC.md lets any call in progress be transferred (ringing ones too: an app routes an incoming
   * call). The call's own callback_url keeps hearing every change; the transfer's hears its end.
   */
  transfer(call: StoredCall, to: string, type: string, callbackUrl?: string): void {
    if (!IN_PROGRESS.includes(call.status) || call.status === 'transferring') {
      throw invalid(`Call ${call.id} cannot be transferred in status ${call.status}`);
    }
    call.transferCallbackUrl = callbackUrl ?? null;
    call.transferHistory.push({ to, type, at: isoTime(this.clock.now()) });
    this.move(call, 'transferring');
    this.#after(call, TRANSFER_MS, ['transferring'], 'answered');
  }

  /** Answers or misses a ringing call (incoming calls wait for one of these). */
  settleRinging(id: string, status: 'answered' | 'missed' | 'voicemail'): StoredCall {
    const call = this.get(id);
    if (call.status !== 'ringing') throw new Error(`Call ${id} is ${call.status}, not ringing`);
    this.move(call, status);
    return call;
  }

  /** Seconds talked: from the answer to the end (or to now while the call goes on). */
  duration(call: StoredCall): number {
    if (call.answeredAt === null) return 0;
    return Math.floor(((call.endedAt ?? this.clock.now()) - call.answeredAt) / 1000);
  }

  #after(call: StoredCall, delayMs: number, expected: readonly CallStatus[], next: CallStatus): void {
    // A transition only fires if nothing else (an end, a transfer) moved the call meanwhile.
    this.clock.schedule(delayMs, () => {
      if (expected.includes(call.status) && this.#calls.has(call.id)) this.move(call, next);
    });
  }
}
