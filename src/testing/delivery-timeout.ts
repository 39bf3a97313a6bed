/** How long a delivery attempt waits for the receiver's answer by default: 10 s, like hosted webhook senders. */
const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;

/**
 * Bounds every delivery attempt made through `post` by `timeoutMs` of wall-clock time; past it the
 * attempt is aborted and rejects, which the deliverer records as no answer and re-delivers.
 * Wall clock, not sandbox time: a manual clock does not move while `advance()` or `idle()` wait
 * for an answer, so only real time can end that wait. The race (beside the signal) also ends it
 * for an injected `deliveryFetch` that ignores `signal`.
 */
export function withDeliveryTimeout(
  post: typeof fetch,
  timeoutMs = DEFAULT_DELIVERY_TIMEOUT_MS,
): typeof fetch {
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new RangeError(`deliveryTimeout must be a positive number of milliseconds, got ${timeoutMs}`);
  }
  return async (input, init) => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const reason = new DOMException(`No answer within ${timeoutMs} ms`, 'TimeoutError');
        controller.abort(reason);
        reject(reason);
      }, timeoutMs);
    });
    try {
      return await Promise.race([post(input, { ...init, signal: controller.signal }), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  };
}
