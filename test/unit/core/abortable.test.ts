/**
 * `abortable` (transport/signals.ts): a wait the caller's signal ends. The promise it wraps is
 * followed in every case, so one that rejects after the abort is never an unhandled rejection.
 */
import { describe, expect, it } from 'vitest';
import { APIUserAbortError } from '../../../src/core/errors.js';
import { abortable } from '../../../src/core/transport/signals.js';

/** Rejections nobody handled while `run` and the ticks after it ran. */
async function unhandledDuring(run: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', listener);
  try {
    await run();
    // Node reports an unhandled rejection after the microtask queue drains: a macrotask later.
    await new Promise((settle) => setImmediate(settle));
    await new Promise((settle) => setImmediate(settle));
  } finally {
    process.off('unhandledRejection', listener);
  }
  return seen;
}

describe('abortable', () => {
  it('rejects at once for a signal already aborted, and a later rejection of the wait is handled', async () => {
    const controller = new AbortController();
    controller.abort();
    let rejectLater: (error: Error) => void = () => {};
    const wait = new Promise<number>((_resolve, reject) => {
      rejectLater = reject;
    });
    const unhandled = await unhandledDuring(async () => {
      await expect(abortable(wait, controller.signal)).rejects.toBeInstanceOf(APIUserAbortError);
      rejectLater(new Error('the store was told of the abort'));
    });
    expect(unhandled).toEqual([]);
  });

  it('rejects when the signal fires during the wait, and resolves with the wait otherwise', async () => {
    const controller = new AbortController();
    const pending = abortable(new Promise<number>(() => {}), controller.signal);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    await expect(abortable(Promise.resolve(7), new AbortController().signal)).resolves.toBe(7);
  });
});
