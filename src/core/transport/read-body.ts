import { APIConnectionError, APITimeoutError, type TelephonyError } from '../errors.js';
import type { Exchange } from './exchange.js';
import { userAbort } from './signals.js';

export function timedOut(exchange: Exchange): APITimeoutError {
  return new APITimeoutError(`${exchange.operation} timed out after ${exchange.timeout} ms`);
}

/**
 * An answer's body as text, within what is left of the attempt's deadline: a body that stalls after
 * its headers fails the call with `APITimeoutError` instead of hanging it (ky clears its timer at
 * the headers), and the caller's abort stops it with `APIUserAbortError`. The SDK holds the reader,
 * so it cancels the stream itself: that needs no signal on the request (a signal given to ky costs an
 * `AbortSignal.any` per call), and works with a fetch (a custom one, a mock) that ignores an abort
 * once it has handed the body over.
 */
export function readText(exchange: Exchange, response: Response): Promise<string> {
  const { body } = response;
  if (body === null) return Promise.resolve('');
  const signal = exchange.signal;
  if (signal?.aborted) return Promise.reject(userAbort(signal));
  const reader = body.getReader();
  return new Promise<string>((resolve, reject) => {
    const stop = (error: TelephonyError) => {
      reader.cancel().catch(() => {});
      reject(error);
    };
    const onAbort = () => stop(userAbort(signal));
    const timer = setTimeout(
      () => stop(timedOut(exchange)),
      Math.max(0, exchange.startedAt + exchange.timeout - Date.now()),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    collectText(reader)
      .then(resolve, (error: unknown) =>
        reject(
          new APIConnectionError(`${exchange.operation}: the response body could not be read`, {
            cause: error,
          }),
        ),
      )
      .finally(() => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      });
  });
}

/** The whole body of `reader` as UTF-8 text, decoded once at the end (a decoder per chunk costs more). */
async function collectText(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
  }
  let bytes = chunks[0] ?? new Uint8Array(0);
  if (chunks.length > 1) {
    bytes = new Uint8Array(length);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
  }
  return new TextDecoder().decode(bytes);
}

/** Frees the connection of an answer we will not read. Not awaited: a cancel can stay pending. */
export function discard(response: Response): void {
  response.body?.cancel().catch(() => {});
}
