import { type ErrorCode, invalid } from './http.js';

/** What an injected fault does to a matching request (API.md, "The sandbox as a bench for failure"). */
export type FaultKind = 'status' | 'rate_limit' | 'drop_before' | 'drop_after' | 'delay' | 'hang';

export const FAULT_KINDS: readonly FaultKind[] = [
  'status',
  'rate_limit',
  'drop_before',
  'drop_after',
  'delay',
  'hang',
];

/** What {@link Sandbox.injectFault} takes. */
export interface FaultInit {
  /** Only requests with this method (`POST`); default any method. */
  method?: string;
  /** An exact path from `/v1` or `/v2` on (`/v2/calls`, `/v2/oauth/token`), `*` for one segment (`/v2/calls/*`). */
  path: string;
  /**
   * `status`: answers `status` in the path's error shape, doing nothing. `rate_limit`: answers 429
   * with `Retry-After: retryAfter`. `drop_before`: closes the connection, doing nothing.
   * `drop_after`: does what was asked, then closes the connection (the answer is lost). `delay`:
   * answers once `delayMs` of sandbox time have passed. `hang`: never answers; the request ends
   * when it is aborted (or, over `listen()`, when the client leaves or the server closes).
   */
  kind: FaultKind;
  /** How many matching requests it hits, then it is gone; default until cleared. */
  times?: number;
  /** `status` only: the status answered, 400–599. Default 500. */
  status?: number;
  /** `rate_limit` only: the `Retry-After` seconds. Default 1. */
  retryAfter?: number;
  /** `delay` only (required): ms of sandbox time before the request is served. */
  delayMs?: number;
}

/** A fault in force, as `sandbox.faults` lists it. */
export interface ActiveFault {
  /** `fault_1`, `fault_2`, … */
  readonly id: string;
  /** The method it hits, or `null` for any. */
  readonly method: string | null;
  /** The path it hits, exact or with `*` for one segment. */
  readonly path: string;
  /** What it does to a request it hits. */
  readonly kind: FaultKind;
  /** How many requests it was given to hit, `null` until cleared. */
  readonly times: number | null;
  /** Requests it has hit so far. */
  readonly hits: number;
  /** `status` faults: the status answered. */
  readonly status?: number;
  /** `rate_limit` faults: the `Retry-After` seconds. */
  readonly retryAfter?: number;
  /** `delay` faults: the delay in ms of sandbox time. */
  readonly delayMs?: number;
}

/** What {@link Sandbox.injectFault} returns. */
export interface FaultHandle {
  /** The fault's id, as `sandbox.faults` and the CLI's `faults` list it. */
  readonly id: string;
  /** Requests it has hit so far (it keeps counting until it is cleared or its `times` run out). */
  readonly hits: number;
  /** Removes the fault; requests already waiting on a `delay` or `hang` stay as they are. */
  clear(): void;
}

/** The options each kind takes beyond method, path and times. */
const OPTIONS_OF: Record<FaultKind, readonly ('status' | 'retryAfter' | 'delayMs')[]> = {
  status: ['status'],
  rate_limit: ['retryAfter'],
  drop_before: [],
  drop_after: [],
  delay: ['delayMs'],
  hang: [],
};

const isWhole = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

function checked(init: FaultInit): Omit<ActiveFault, 'id' | 'hits'> {
  const { method, path, kind, times } = init;
  if (!FAULT_KINDS.includes(kind)) throw invalid(`kind must be one of ${FAULT_KINDS.join(', ')}`);
  if (typeof path !== 'string' || !/^\/[^?#\s]*$/.test(path)) {
    throw invalid('path must start with / and have no query (`*` stands for one segment)');
  }
  if (method !== undefined && (typeof method !== 'string' || !/^[A-Za-z]+$/.test(method))) {
    throw invalid('method must be an HTTP method (letters only)');
  }
  if (times !== undefined && !(isWhole(times) && times >= 1))
    throw invalid('times must be a whole number ≥ 1');
  for (const option of ['status', 'retryAfter', 'delayMs'] as const) {
    if (init[option] !== undefined && !OPTIONS_OF[kind].includes(option)) {
      throw invalid(`${option} does not apply to a ${kind} fault`);
    }
  }
  const fault = { method: method?.toUpperCase() ?? null, path, kind, times: times ?? null };
  if (kind === 'status') {
    const status = init.status ?? 500;
    if (!(isWhole(status) && status >= 400 && status <= 599)) throw invalid('status must be from 400 to 599');
    return { ...fault, status };
  }
  if (kind === 'rate_limit') {
    const retryAfter = init.retryAfter ?? 1;
    if (!(isWhole(retryAfter) && retryAfter >= 0)) throw invalid('retryAfter must be a whole number ≥ 0');
    return { ...fault, retryAfter };
  }
  if (kind === 'delay') {
    const { delayMs } = init;
    if (!(isWhole(delayMs) && delayMs >= 0)) throw invalid('delayMs (ms) is required: a whole number ≥ 0');
    return { ...fault, delayMs };
  }
  return fault;
}

function matches(pattern: string, path: string): boolean {
  const want = pattern.split('/');
  const got = path.split('/');
  return (
    want.length === got.length && want.every((part, i) => (part === '*' ? got[i] !== '' : part === got[i]))
  );
}

type Stored = { -readonly [K in keyof ActiveFault]: ActiveFault[K] };

/** The faults in force, in the order they were injected; the first that matches a request hits it. */
export class Faults {
  #next = 1;
  readonly #active: Stored[] = [];
  readonly #listeners = new Set<() => void>();

  inject(init: FaultInit): FaultHandle {
    const fault: Stored = { id: `fault_${this.#next++}`, ...checked(init), hits: 0 };
    this.#active.push(fault);
    this.#changed();
    return {
      id: fault.id,
      get hits() {
        return fault.hits;
      },
      clear: () => this.clear(fault.id),
    };
  }

  /** Removes fault `id`; false when it is not in force. */
  clear(id: string): boolean {
    const index = this.#active.findIndex((fault) => fault.id === id);
    if (index < 0) return false;
    this.#active.splice(index, 1);
    this.#changed();
    return true;
  }

  clearAll(): void {
    this.#active.splice(0);
    this.#changed();
  }

  /** Snapshots of the faults in force. */
  list(): ActiveFault[] {
    return this.#active.map((fault) => ({ ...fault }));
  }

  /** The fault that hits `method path` (`path` from /v1 or /v2 on), counted as hit; gone once its times run out. */
  take(method: string, path: string): ActiveFault | undefined {
    const fault = this.#active.find(
      (candidate) => (candidate.method ?? method) === method && matches(candidate.path, path),
    );
    if (!fault) return undefined;
    fault.hits++;
    if (fault.times !== null && fault.hits >= fault.times)
      this.#active.splice(this.#active.indexOf(fault), 1);
    this.#changed();
    return { ...fault };
  }

  /** Calls `listener` after each change (injected, hit, cleared); returns the function that stops it. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    for (const listener of this.#listeners) {
      // A listener (a console tab) must never break the request it hears of.
      try {
        listener();
      } catch {}
    }
  }
}

/** One line for a fault, as the CLI and the console show it: `fault_1 POST /v2/calls drop_after, 1 hit of 1`. */
export function describeFault(fault: ActiveFault): string {
  const detail =
    fault.kind === 'status'
      ? ` ${fault.status}`
      : fault.kind === 'rate_limit'
        ? ` retryAfter=${fault.retryAfter}`
        : fault.kind === 'delay'
          ? ` delayMs=${fault.delayMs}`
          : '';
  const of = fault.times === null ? ', until cleared' : ` of ${fault.times}`;
  const hits = `${fault.hits} ${fault.hits === 1 ? 'hit' : 'hits'}`;
  return `${fault.id} ${fault.method ?? 'any'} ${fault.path} ${fault.kind}${detail}, ${hits}${of}`;
}

/** The code of an injected status, as SPEC.md's Errors table pairs them. */
export function codeOfStatus(status: number): ErrorCode {
  const codes: Record<number, ErrorCode> = {
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not_found',
    429: 'rate_limit_exceeded',
  };
  return codes[status] ?? (status < 500 ? 'invalid_parameter' : 'server_error');
}
