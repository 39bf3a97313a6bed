import { afterEach, describe, expect, it, vi } from 'vitest';
import { Deadline, DeadlinePassed } from '../../../src/core/transport/deadline.js';
import { fakeClock } from '../../helpers/clock.js';

describe('Deadline', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts down on the client clock; a wait fits only if it ends before the deadline', async () => {
    const clock = fakeClock();
    const deadline = new Deadline(clock, 5_000);
    expect(deadline.left()).toBe(5_000);
    expect(deadline.fits(4_999)).toBe(true);
    expect(deadline.fits(5_000)).toBe(false);
    await clock.sleep(3_000);
    expect(deadline.left()).toBe(2_000);
    expect(deadline.fits(2_500)).toBe(false);
    clock.advance(2_500);
    expect(deadline.left()).toBe(0);
    expect(deadline.fits(0)).toBe(false);
  });

  it("cuts an attempt's time-out to what is left, never below 1 ms", () => {
    const clock = fakeClock();
    const deadline = new Deadline(clock, 10_000);
    expect(deadline.attemptTimeout(60_000)).toBe(10_000);
    expect(deadline.attemptTimeout(3_000)).toBe(3_000);
    clock.advance(20_000);
    expect(deadline.attemptTimeout(3_000)).toBe(1);
  });

  it('within: the promise when it settles first, DeadlinePassed when the deadline does', async () => {
    vi.useFakeTimers();
    const clock = fakeClock();
    const deadline = new Deadline(clock, 1_000);
    await expect(deadline.within(Promise.resolve('token'))).resolves.toBe('token');
    const never = new Promise<string>(() => {});
    const late = deadline.within(never);
    const rejected = expect(late).rejects.toBeInstanceOf(DeadlinePassed);
    await vi.advanceTimersByTimeAsync(999);
    let settled = false;
    void late.catch(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await rejected;
    expect(vi.getTimerCount()).toBe(0);
  });

  it('within: rejects at once when no time is left', async () => {
    const clock = fakeClock();
    const deadline = new Deadline(clock, 100);
    clock.advance(100);
    await expect(deadline.within(Promise.resolve(1))).rejects.toMatchObject({ totalMs: 100 });
  });
});
