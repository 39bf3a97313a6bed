import type { Scheduler } from './clock.js';
import { type ActiveFault, codeOfStatus } from './faults.js';
import { type ApiVersion, errorResponse, SandboxError } from './http.js';

/** Resolves once the request is aborted, rejecting with the abort's reason (never resolves otherwise). */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * Waits `ms` of sandbox time: a manual clock's `advance()` or the real-time ticker ends it, never a
 * wall-clock timer of its own, so a test moves it like any other sandbox timer.
 */
function sandboxTime(clock: Scheduler, ms: number, signal: AbortSignal): Promise<void> {
  if (ms === 0) return Promise.resolve();
  return Promise.race([new Promise<void>((resolve) => clock.schedule(ms, resolve)), aborted(signal)]);
}

/**
 * The answer to a request a fault hit. A lost connection is `Response.error()`, the network error
 * of the Fetch standard: `sandbox.fetch` turns it into fetch's `TypeError`, msw into a failed fetch,
 * and the HTTP server into a destroyed socket.
 */
export async function faultAnswer(
  fault: ActiveFault,
  request: Request,
  version: ApiVersion,
  clock: Scheduler,
  serve: () => Promise<Response>,
): Promise<Response> {
  switch (fault.kind) {
    case 'status': {
      const status = fault.status ?? 500;
      return errorResponse(
        version,
        new SandboxError(status, codeOfStatus(status), `Injected fault: ${status}`),
      );
    }
    case 'rate_limit': {
      const headers = { 'retry-after': String(fault.retryAfter ?? 1) };
      return errorResponse(
        version,
        new SandboxError(429, 'rate_limit_exceeded', 'Injected fault: rate limit exceeded', headers),
      );
    }
    case 'drop_before':
      return Response.error();
    case 'drop_after':
      await serve();
      return Response.error();
    case 'delay':
      await sandboxTime(clock, fault.delayMs ?? 0, request.signal);
      return serve();
    case 'hang':
      return aborted(request.signal);
  }
}
