import type { ActivityFeed, PrincipalView } from './activity.js';
import type { CallStatus, StoredCall } from './calls.js';
import type { Scheduler } from './clock.js';
import type { Principal, SandboxApiKey } from './credentials.js';
import type { Delivery } from './delivery.js';
import { faultAnswer } from './fault-answer.js';
import type { Faults } from './faults.js';
import { apiPathOf, routeOf } from './http.js';
import type { SandboxPlan } from './plans.js';
import type { RateLimiter } from './rate-limit.js';
import { route, type World } from './router.js';

const planName = (plan: SandboxPlan) => (typeof plan === 'string' ? plan : `${plan.requestsPerMinute}/min`);

/**
 * `route` under the faults in force, recording each request in the feed with who made it, the
 * budget it has used this minute and the fault that hit it. A v1 principal is shown as
 * `apiKeys[i]`: its id is the key, a secret.
 */
export function recordedRoute(
  world: World,
  activity: ActivityFeed,
  apiKeys: readonly SandboxApiKey[],
  faults: Faults,
  clock: Scheduler,
) {
  const keyLabels = new Map(apiKeys.map(({ key }, index) => [key, `apiKeys[${index}]`]));
  const view = (principal: Principal, limiter: RateLimiter) => {
    const { plan, limit, used } = limiter.windowOf(principal, world.now());
    const label = principal.version === 'v1' ? (keyLabels.get(principal.id) ?? 'apiKeys[?]') : principal.id;
    const shown: PrincipalView = { label, plan: planName(plan) };
    return { principal: shown, rate: { used, limit } };
  };
  return async (request: Request): Promise<Response> => {
    let principal: Principal | undefined;
    const serve = () =>
      route(world, request, (accepted) => {
        principal = accepted;
      });
    const url = new URL(request.url);
    const fault = faults.take(request.method, apiPathOf(url.pathname));
    let response: Response | undefined;
    try {
      response = fault
        ? await faultAnswer(fault, request, routeOf(url.pathname).version, clock, serve)
        : await serve();
      return response;
    } finally {
      // Recorded also when no answer was sent (a drop, an aborted delay or hang): status null.
      activity.push({
        kind: 'request',
        at: world.now(),
        method: request.method,
        path: url.pathname + url.search,
        status: response && response.type !== 'error' ? response.status : null,
        fault: fault ? { id: fault.id, kind: fault.kind } : null,
        ...(principal ? view(principal, world.rateLimiter) : { principal: null, rate: null }),
      });
    }
  };
}

/** Records a delivery attempt (the Deliverer's listener). */
export const recordDelivery =
  (activity: ActivityFeed) =>
  (delivery: Delivery, nextAttemptAt: number | null): void =>
    activity.push({
      kind: 'delivery',
      at: delivery.at,
      eventId: delivery.event.id,
      type: delivery.event.type,
      url: delivery.url,
      webhookId: delivery.webhookId,
      attempt: delivery.attempt,
      status: delivery.status,
      body: delivery.body,
      signature: delivery.signature,
      nextAttemptAt,
      latencyMs: delivery.latencyMs,
      response: delivery.response,
      noAnswer: delivery.noAnswer,
      resent: delivery.resent,
    });

/** Records a call's status change. */
export function recordCall(
  activity: ActivityFeed,
  now: number,
  call: StoredCall,
  previous: CallStatus | null,
) {
  activity.push({
    kind: 'call',
    at: now,
    callId: call.id,
    direction: call.direction,
    from: call.from.number,
    to: call.to.number,
    status: call.status,
    previous,
  });
}
