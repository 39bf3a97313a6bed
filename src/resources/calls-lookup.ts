import { TelephonyError } from '../core/errors.js';
import type { WithResponse } from '../core/response/api-promise.js';
import { quote } from '../core/zod-issues.js';
import type { Calls } from './calls.js';
import { IDEMPOTENCY_FIELD } from './calls-idempotency-field.js';
import type { CallDetail } from './calls-schemas.js';

/**
 * The idempotency look-up: `calls.findByIdempotencyKey`, and what a `calls.create` whose outcome is
 * `unknown` does before it rejects. Loaded by `import()` when first needed (calls.ts): a client whose
 * creates are answered never loads it.
 */

/** Most call details one look-up reads: it rejects past this (a later `since` narrows it). */
const MAX_DETAIL_READS = 50;

/** What a failed look-up's error says, for the message of the create that needed it. */
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * `calls.findByIdempotencyKey` (its arguments checked there): the detail that holds `key`, and the answer
 * of the read that decided it.
 */
export function findByIdempotencyKey(
  calls: Calls,
  key: string,
  since: string | Date,
  signal: AbortSignal | undefined,
): Promise<WithResponse<CallDetail | undefined>> {
  return find(calls, key, since, signal);
}

/**
 * What a `calls.create` that ended with outcome `unknown` resolves with: the call its key finds. Rejects
 * with `error`, its message saying how to find out, when there is no key or the look-up finds nothing.
 */
export async function settleUnknownCreate(
  calls: Calls,
  error: TelephonyError,
  key: string | undefined,
  since: Date,
  signal: AbortSignal | undefined,
  to: string,
): Promise<WithResponse<CallDetail>> {
  if (key === undefined) {
    error.message +=
      " To find out, look for it in calls.listRecent({ direction: 'outbound' }); a call placed with an" +
      ' idempotencyKey is found by calls.findByIdempotencyKey.';
    throw error;
  }
  const ask = `calls.findByIdempotencyKey(${quote(key, 40)})`;
  let found: WithResponse<CallDetail | undefined>;
  try {
    found = await find(calls, key, since, signal, to);
  } catch (lookUp) {
    error.message += ` Looking the call up failed too (${errorText(lookUp)}): ask ${ask} before placing it again.`;
    throw error;
  }
  const { data } = found;
  if (data !== undefined) return { ...found, data };
  error.message += ` ${ask} found no such call just now; a placed call shows within seconds, so ask again before placing it again.`;
  throw error;
}

/**
 * Walks the outbound calls from `since` (given `to`, only calls to that number) and reads each one's
 * detail until one holds `key`. The answer is the detail read that found it, or the last page's.
 */
async function find(
  calls: Calls,
  key: string,
  since: string | Date,
  signal: AbortSignal | undefined,
  to?: string,
): Promise<WithResponse<CallDetail | undefined>> {
  // Page by page rather than `for await`, for each page's answer; a call already read (a page the
  // service repeated) is not read again.
  const read = new Set<string>();
  let listed = await calls
    .listRecent({ direction: 'outbound', from: since, limit: 100 }, { signal })
    .withResponse();
  for (;;) {
    for (const call of listed.data.items) {
      if ((to !== undefined && call.to.number !== to) || read.has(call.id)) continue;
      if (read.size === MAX_DETAIL_READS) {
        throw new TelephonyError(
          `calls.findByIdempotencyKey: ${MAX_DETAIL_READS} outbound calls read without the key, and older ` +
            'ones remain: pass a later since',
        );
      }
      read.add(call.id);
      const detail = await calls.get(call.id, { signal }).withResponse();
      if (detail.data.custom_data?.[IDEMPOTENCY_FIELD] === key) return detail;
    }
    if (!listed.data.hasNextPage()) return { ...listed, data: undefined };
    listed = await listed.data.getNextPage().withResponse();
  }
}
