import type { SharedState } from '../../src/core/pacing/shared-state.js';

/**
 * `state`, recording in `keys` the key (first argument) of every operation asked of it. A member the
 * state lacks (the optional `fleetBudget`) stays absent.
 */
export function recordingKeys(state: SharedState, keys: string[]): SharedState {
  return new Proxy(state, {
    get(target, name) {
      const method = Reflect.get(target, name) as ((...args: unknown[]) => unknown) | undefined;
      if (method === undefined) return undefined;
      return (key: string, ...rest: unknown[]) => {
        keys.push(key);
        return method.call(target, key, ...rest);
      };
    },
  }) as SharedState;
}
