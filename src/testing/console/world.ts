import type { ActivityFeed } from '../activity.js';
import type { CallStore } from '../calls.js';
import type { Scheduler } from '../clock.js';
import type { Deliverer } from '../delivery.js';
import type { CallNotifier } from '../events.js';
import { describeFault, type Faults } from '../faults.js';
import type { RateUsage } from '../rate-limit.js';
import type { IncomingCallInit } from '../sandbox.js';
import { computeStats } from '../stats.js';
import type { Webhooks } from '../webhooks.js';

/** What the console reads and drives: the sandbox's own parts, not its public surface. */
export interface ConsoleWorld {
  activity: ActivityFeed;
  calls: CallStore;
  deliverer: Deliverer;
  webhooks: Webhooks;
  notifier: CallNotifier;
  clock: Scheduler;
  /** The faults in force: the console lists, adds and clears them. */
  faults: Faults;
  /** The account's number: the `from` of calls placed from the console. */
  accountNumber: string;
  /** False for a real-time clock, which the console cannot move. */
  manualClock: boolean;
  simulateIncomingCall(init: IncomingCallInit): { id: string };
  /** Moves a manual clock and waits for the deliveries it causes. */
  advance(ms: number): Promise<void>;
  /** `sandbox.rateReport()`, served at `/_console/rate`. */
  rateReport(): RateUsage[];
}

/** Calls per day (`by_day` of GET /v2/calls/stats over every call), for the chart. */
export function statsByDay(world: ConsoleWorld) {
  const stats = computeStats(world.calls.all(), 'day', (call) => world.calls.duration(call));
  return stats.by_day;
}

/** Registered webhooks as the page shows them: never their secrets. */
export function webhookList(world: ConsoleWorld) {
  return world.webhooks.registered.map(({ id, url, events, description, created_at }) => ({
    ...{ id, url, events, description, created_at },
  }));
}

/** The faults in force as the page lists them, each with its one-line description. */
export function faultList(world: ConsoleWorld) {
  return world.faults.list().map((fault) => ({ ...fault, summary: describeFault(fault) }));
}

/** Everything a console shows when it connects; records then follow one by one. */
export function consoleSnapshot(world: ConsoleWorld) {
  return {
    now: world.clock.now(),
    manualClock: world.manualClock,
    ...world.activity.recent(),
    stats: statsByDay(world),
    webhooks: webhookList(world),
    faults: faultList(world),
  };
}
