import { HTTPError } from 'ky';
import type { Credential } from '../auth/credentials.js';
import type { SharedTokenSource } from '../auth/shared-token.js';
import type { Clock } from '../clock.js';
import { TelephonyError } from '../errors.js';
import { discard } from '../response/body.js';
import { type Exchange, outcomeOf } from './exchange.js';
import { decideRetry } from './retry.js';

/**
 * ky asks this for every failed attempt: `true` retries after `exchange.delayMs`, `false` gives up.
 * @param sharedToken the shared source behind `v2` (the client's v2 credential), if it has one
 */
export function shouldRetry(
  exchange: Exchange,
  error: Error,
  clock: Clock,
  sharedToken: SharedTokenSource | undefined,
  v2: Credential | undefined,
): boolean | Promise<boolean> {
  if (error instanceof TelephonyError || exchange.link?.controller.signal.aborted) return false;
  if (error instanceof HTTPError) {
    const { response } = error;
    if (
      response.status === 401 &&
      !exchange.refreshed &&
      exchange.credential !== undefined &&
      exchange.bearer !== undefined &&
      exchange.credential.invalidate(exchange.bearer)
    ) {
      exchange.refreshed = true;
      // Dropped from the shared state first, so the repeat's token request cannot read it back.
      const refused = exchange.bearer;
      if (sharedToken === undefined || exchange.credential !== v2)
        return retryAfter(exchange, 0, 'status 401', response);
      return sharedToken.drop(refused).then(() => retryAfter(exchange, 0, 'status 401', response));
    }
  }
  const decision = decideRetry(
    outcomeOf(error, clock.now()),
    exchange.retries,
    exchange.maxRetries,
    exchange.idempotent,
    exchange.maxRetryAfterMs,
    Math.random(),
  );
  if (!decision.retry) return false;
  exchange.retries++;
  return retryAfter(exchange, decision.delayMs, decision.reason, (error as Partial<HTTPError>).response);
}

function retryAfter(exchange: Exchange, delayMs: number, reason: string, answer: Response | undefined): true {
  // The answer of an attempt that is retried is not read: free its connection.
  if (answer !== undefined) discard(answer);
  exchange.delayMs = delayMs;
  exchange.reason = reason;
  return true;
}
