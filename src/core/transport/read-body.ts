import { APIConnectionError, ResponseValidationError, TelephonyError, timedOut } from '../errors.js';
import { userAbort } from './signals.js';

/** What bounds the read of one attempt's answer. */
export interface BodyRead {
  operation: string;
  /** The call's own signal, aborted with the caller's. */
  signal: AbortSignal | undefined;
  /** When the attempt's fetch started (wall clock: the deadline runs on real timers). */
  startedAt: number;
  timeout: number;
  maxResponseBytes: number;
}

/**
 * An answer's body as text, within what is left of the attempt's deadline: a body that stalls after
 * its headers fails the call with `APITimeoutError` instead of hanging it (ky clears its timer at
 * the headers), and the caller's abort stops it with `APIUserAbortError`. The SDK holds the reader,
 * so it cancels the stream itself: that needs no signal on the request (a signal given to ky costs an
 * `AbortSignal.any` per call), and works with a fetch (a custom one, a mock) that ignores an abort
 * once it has handed the body over.
 *
 * No body is read past `maxResponseBytes`: a longer one is cancelled there and rejects with
 * `ResponseValidationError` (`response_too_large`), or, when `cut` is given (an error answer), resolves
 * to its first bytes after calling `cut`.
 */
export async function readText(read: BodyRead, response: Response, cut?: () => void): Promise<string> {
  const { body } = response;
  if (body === null) return '';
  const { signal } = read;
  if (signal?.aborted) throw userAbort(signal);
  const reader = body.getReader();
  // One async function, not a promise around a second one: fewer promises and turns per call.
  // Stopping cancels the stream, which ends a pending read at once; the loop then throws `stopped`.
  let stopped: TelephonyError | undefined;
  const stop = (error: TelephonyError) => {
    stopped = error;
    reader.cancel().catch(() => {});
  };
  const onAbort = () => stop(userAbort(signal));
  const timer = setTimeout(
    () => stop(timedOut(read.operation, read.timeout)),
    Math.max(0, read.startedAt + read.timeout - Date.now()),
  );
  signal?.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  const max = read.maxResponseBytes;
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (stopped) throw stopped;
      if (done) break;
      if (length + value.byteLength > max) {
        // An endless or huge body stops here: memory stays within the cap and one chunk.
        reader.cancel().catch(() => {});
        if (cut === undefined) throw tooLarge(read, response.status);
        cut();
        chunks.push(value.subarray(0, max - length));
        length = max;
        break;
      }
      chunks.push(value);
      length += value.byteLength;
    }
  } catch (error) {
    throw (
      stopped ??
      (error instanceof TelephonyError
        ? error
        : new APIConnectionError(`${read.operation}: the response body could not be read`, {
            cause: error,
          }))
    );
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  // Decoded once at the end (a decoder per chunk costs more).
  let bytes = chunks[0] ?? new Uint8Array(0);
  if (chunks.length > 1) {
    bytes = new Uint8Array(length);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
  }
  return decoder.decode(bytes);
}

/**
 * The start of `response`'s body as text: its first chunk (at most `bytes` of it), the rest cancelled.
 * For a glance at an answer the SDK also reads in full (a copy), never past one chunk.
 */
export async function bodyStart(response: Response, bytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const { value } = await reader.read();
  reader.cancel().catch(() => {});
  return decoder.decode(value?.subarray(0, bytes));
}

/** One for every body: `decode` without `stream` keeps no state between calls, and a new one costs µs. */
const decoder = new TextDecoder();

function tooLarge(read: BodyRead, status: number): ResponseValidationError {
  const message = 'longer than maxResponseBytes';
  return new ResponseValidationError(
    `${read.operation} → ${status}: the body is ${message} (${read.maxResponseBytes})`,
    [{ path: '', message }],
    { code: 'response_too_large' },
  );
}

/** Frees the connection of an answer we will not read. Not awaited: a cancel can stay pending. */
export function discard(response: Response): void {
  response.body?.cancel().catch(() => {});
}
