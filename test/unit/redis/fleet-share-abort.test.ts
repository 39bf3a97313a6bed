import { describe, expect, it } from 'vitest';
import { ClientEmitter } from '../../../src/core/events.js';
import { FailSafeState } from '../../../src/core/pacing/fail-safe-state.js';
import { MemoryState, type Reservation, type SharedState } from '../../../src/core/pacing/shared-state.js';
import { FleetShare } from '../../../src/redis/fleet-share.js';
import { fakeClock } from '../../helpers/clock.js';

// While a restarted store's window is refilled, the fleet share asks it again every 100 ms for as
// long as the call would wait. A call the caller aborted is over: the share stops asking for it.

const BUDGET = { limit: 10, windowMs: 61_000, maxWaitMs: 61_000 };

describe('FleetShare: an aborted call stops asking the store', () => {
  it('a call held while the window refills: its abort ends the polling at once', async () => {
    const clock = fakeClock();
    const controller = new AbortController();
    let asks = 0;
    const refilling: Reservation = { waitMs: 500, reason: 'pacing', retry: 'refilling' };
    const store: SharedState = Object.assign(Object.create(new MemoryState()) as SharedState, {
      reserve: async () => {
        if (++asks === 3) controller.abort(new Error('caller gave up'));
        return refilling;
      },
    });
    const share = new FleetShare(new FailSafeState(store, clock, new ClientEmitter(), 1_000));
    const reserved = share.reserve('acct:v2', { ...BUDGET }, clock.now(), 1_000, controller.signal);
    await expect(reserved).rejects.toThrow('caller gave up');
    expect(asks).toBe(3);
  });
});
