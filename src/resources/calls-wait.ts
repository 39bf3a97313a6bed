import type { Clock } from '../core/clock.js';
import { pollUntil } from '../core/poll.js';
import type { WithResponse } from '../core/response/api-promise.js';
import { quote } from '../core/zod-issues.js';
import type { CallCondition, Calls, WaitForCallOptions } from './calls.js';
import type { CallDetail } from './calls-schemas.js';

/**
 * `calls.waitFor`, loaded by `import()` at its first use (calls.ts): a client that never follows a
 * call does not load the polling.
 */

/** The call an event is about, when its `data.call` has an id. */
function eventCallId(event: { data?: unknown }): unknown {
  const data = event.data as { call?: { id?: unknown } | null } | null | undefined;
  return data?.call?.id;
}

/**
 * Reads the call through `calls.get` until it matches `until` (checked by `calls.waitFor`), on `clock`;
 * resolves with the matching detail and the answer of the read that found it.
 */
export async function waitForCall(
  calls: Calls,
  clock: Clock,
  callId: string,
  until: CallCondition,
  options: WaitForCallOptions,
): Promise<WithResponse<CallDetail>> {
  const { signal, timeout, receiver } = options;
  const matches =
    typeof until === 'function'
      ? until
      : (call: CallDetail) => (typeof until === 'string' ? [until] : until).includes(call.status);
  const [initial, max] = receiver === undefined ? [1_000, 10_000] : [10_000, 60_000];
  const interval = {
    initial: options.pollInterval?.initial ?? initial,
    max: options.pollInterval?.max ?? max,
  };
  return pollUntil(
    () => calls.get(callId, { signal }).withResponse(),
    ({ data }) => matches(data),
    {
      clock,
      signal,
      timeout,
      interval: { initial: interval.initial, max: Math.max(interval.initial, interval.max) },
      wake:
        receiver &&
        ((wakeUp) => {
          const listener = (event: { data?: unknown }) => {
            if (eventCallId(event) === callId) wakeUp();
          };
          receiver.on('*', listener);
          return () => receiver.off('*', listener);
        }),
      timedOut: ({ data }) =>
        `calls.waitFor: call ${quote(callId, 40)} still ${quote(data.status, 40)} after ${timeout} ms`,
    },
  );
}
