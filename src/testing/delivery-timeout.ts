/** How long a delivery attempt waits for the receiver's answer by default: 10 s, like hosted webhook senders. */
const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
/** How much of the receiver's answer body is kept: enough to read an error page or a JSON reason. */
export const KEPT_BODY_BYTES = 4096;

/** What the receiver answered: its headers and the first 4 096 bytes of its body. */
export interface DeliveryResponse {
  /** Response headers, names in lower case. */
  headers: Record<string, string>;
  /** The start of the body, as UTF-8 text. */
  body: string;
  /** True when the body was longer than what is kept. */
  truncated: boolean;
}

/** Why no answer came: nothing listening, no answer in time, the connection dropped, or anything else. */
export type NoAnswerCause = 'refused' | 'timed out' | 'reset' | 'failed';

/** Why an attempt got no answer. */
export interface NoAnswer {
  /** `refused` (nothing listening), `timed out` (past `deliveryTimeout`), `reset` (connection dropped) or `failed`. */
  cause: NoAnswerCause;
  /** The error's message, e.g. `fetch failed: connect ECONNREFUSED 127.0.0.1:3000`. */
  message: string;
}

/** The outcome of one POST: an answer, or the reason there was none. */
export type AttemptOutcome =
  | { status: number; response: DeliveryResponse; noAnswer: null }
  | { status: null; response: null; noAnswer: NoAnswer };

/** Posts once and reads the answer; bounded in time. */
export type AttemptPoster = (url: string, init: RequestInit) => Promise<AttemptOutcome>;

async function readKept(response: Response): Promise<DeliveryResponse> {
  const headers = Object.fromEntries(response.headers);
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader && size <= KEPT_BODY_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  // The rest is never read: a receiver answering megabytes costs the sandbox 4 KiB.
  if (size > KEPT_BODY_BYTES) await reader?.cancel().catch(() => {});
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  const body = new TextDecoder().decode(bytes.subarray(0, KEPT_BODY_BYTES));
  return { headers, body, truncated: size > KEPT_BODY_BYTES };
}

const CODES: Record<string, NoAnswerCause> = {
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
};

/** Reads node's error code through fetch's `TypeError('fetch failed', { cause })` and its AggregateError. */
function causeOf(error: unknown): NoAnswerCause {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const { code, cause, errors } = current as { code?: unknown; cause?: unknown; errors?: unknown[] };
    const known = typeof code === 'string' ? CODES[code] : undefined;
    if (known) return known;
    current = cause ?? errors?.[0];
  }
  return 'failed';
}

function messageOf(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  const text = (value: unknown) => (value instanceof Error ? value.message : String(value));
  return cause === undefined ? text(error) : `${text(error)}: ${text(cause)}`;
}

/**
 * One delivery attempt through `post`, answer read, bounded by `timeoutMs` of wall-clock time:
 * past it the attempt is aborted and counts as unanswered ('timed out'), and is re-delivered.
 * Wall clock, not sandbox time: a manual clock does not move while `advance()` or `idle()` wait
 * for an answer, so only real time can end that wait. The race (beside the signal) also ends it
 * for an injected `deliveryFetch` that ignores `signal`, and it covers reading the body too.
 */
export function withDeliveryTimeout(
  post: typeof fetch,
  timeoutMs = DEFAULT_DELIVERY_TIMEOUT_MS,
): AttemptPoster {
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new RangeError(`deliveryTimeout must be a positive number of milliseconds, got ${timeoutMs}`);
  }
  return async (url, init) => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const reason = new DOMException(`No answer within ${timeoutMs} ms`, 'TimeoutError');
        controller.abort(reason);
        reject(reason);
      }, timeoutMs);
    });
    const answer = async () => {
      const response = await post(url, { ...init, signal: controller.signal });
      return { status: response.status, response: await readKept(response), noAnswer: null };
    };
    try {
      return await Promise.race([answer(), timedOut]);
    } catch (error) {
      return { status: null, response: null, noAnswer: { cause: causeOf(error), message: messageOf(error) } };
    } finally {
      clearTimeout(timer);
    }
  };
}
