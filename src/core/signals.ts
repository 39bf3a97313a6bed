import { APIUserAbortError } from './errors.js';

/**
 * A signal that aborts when the caller's does or the attempt's timer fires. `AbortSignal.any` keeps
 * following the caller's signal while the body is read; where it is missing (Node < 20.3, older
 * browsers) the caller's abort is forwarded by a listener instead.
 */
export function followBoth(signal: AbortSignal, attempt: AbortController): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any([signal, attempt.signal]);
  signal.addEventListener('abort', () => attempt.abort(signal.reason), {
    once: true,
    signal: attempt.signal,
  });
  return attempt.signal;
}

/** The error for a call the caller's signal aborted; `cause` is the signal's reason. */
export function userAbort(signal: AbortSignal | undefined): APIUserAbortError {
  return new APIUserAbortError('Request aborted by the caller', { cause: signal?.reason });
}

/** Waits for `promise`, but rejects with APIUserAbortError as soon as `signal` aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(userAbort(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(userAbort(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
