import type { Clock } from '../clock.js';
import { APIUserAbortError } from '../errors.js';

// One abort listener per caller signal, whatever the number of calls it is passed to: a signal shared
// by every call of a long-lived worker would otherwise collect a listener (or, through
// `AbortSignal.any`, a dependant that Node 20 never releases) per call — heap growth without end,
// and Node's MaxListenersExceededWarning past 10 concurrent calls.
const followers = new WeakMap<AbortSignal, Set<AbortController>>();

function abortFollowers(this: AbortSignal): void {
  const set = followers.get(this);
  followers.delete(this);
  for (const controller of set ?? []) controller.abort(this.reason);
}

/** A call's own abort controller, aborted when `signal` (the caller's) aborts, until `release()`. */
export interface Link {
  readonly controller: AbortController;
  /** Stops following the caller's signal; the call is over. */
  release(): void;
}

const noRelease = () => {};

/** Links a new controller to the caller's `signal`. */
export function follow(signal: AbortSignal): Link {
  const controller = new AbortController();
  if (signal.aborted) {
    controller.abort(signal.reason);
    return { controller, release: noRelease };
  }
  let set = followers.get(signal);
  if (set === undefined) {
    set = new Set();
    followers.set(signal, set);
    signal.addEventListener('abort', abortFollowers, { once: true });
  }
  set.add(controller);
  const followed = set;
  return {
    controller,
    release() {
      followed.delete(controller);
      if (followed.size === 0 && followers.get(signal) === followed) {
        followers.delete(signal);
        signal.removeEventListener('abort', abortFollowers);
      }
    },
  };
}

/**
 * `body` as read by the caller, releasing `link` once it ends, fails or is cancelled. Until then the
 * caller's abort still reaches the fetch, which stops the body. Read only when the caller reads
 * (`highWaterMark: 0`): a stream that filled its queue would take the first chunk off the connection
 * as soon as the download resolved, before the caller has even looked at the headers.
 */
export function releasing(body: ReadableStream<Uint8Array>, link: Link): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream(
    {
      pull: (controller) =>
        reader.read().then(
          ({ done, value }) => {
            if (!done) return controller.enqueue(value);
            link.release();
            controller.close();
          },
          (error: unknown) => {
            link.release();
            controller.error(error);
          },
        ),
      cancel(reason) {
        link.release();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** The error for a call the caller's signal aborted; `cause` is the signal's reason. */
export function userAbort(signal: AbortSignal | undefined): APIUserAbortError {
  return new APIUserAbortError('Request aborted by the caller', { cause: signal?.reason });
}

/** Waits for `promise`, but rejects with APIUserAbortError as soon as `signal` aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(userAbort(signal));
    // Followed even when the signal has already fired: a promise that rejects later (a reservation
    // told of the abort) would otherwise be an unhandled rejection.
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** `clock.sleep`, rejecting with APIUserAbortError when `signal` ends it. */
export const sleep = (clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<void> =>
  clock.sleep(ms, signal).catch(() => {
    throw userAbort(signal);
  });
