/** What a middleware is told about the attempt it runs around. */
export interface MiddlewareContext {
  /** The operation's name (`calls.create`, `GET /v2/calls/recent`). */
  readonly operation: string;
  /** 0 for the first try, 1 for the first retry, … (as in events). */
  readonly attempt: number;
  /** The id the SDK gave the call: the same in its events, logs, spans and errors. */
  readonly requestId: string;
}

/**
 * Runs around every attempt, after the SDK has set the credential and before `fetch`. It may change
 * the request (headers, the URL on the same origin) or the response. `next` sends the request on
 * through the rest of the chain; it may be called once per attempt (a second call rejects), so retries
 * stay the SDK's decision and a `POST` is never sent twice. A middleware that throws fails the attempt
 * like a network failure (nothing was sent if it threw before `next`).
 *
 * @example
 * ```ts
 * const client = new TelephonyClient({
 *   ...credentials,
 *   middleware: [
 *     (request, next, { requestId }) => {
 *       request.headers.set('x-correlation-id', requestId);
 *       return next(request);
 *     },
 *   ],
 * });
 * ```
 */
export type Middleware = (
  request: Request,
  next: (request?: Request) => Promise<Response>,
  context: MiddlewareContext,
) => Promise<Response>;

/**
 * A middleware threw, rejected or broke a rule: `sent` says whether the request had reached `fetch`
 * by then, so the attempt's failure is mapped as one that sent nothing, or as one whose answer is lost.
 */
export class MiddlewareFailure extends Error {
  override readonly name = 'MiddlewareFailure';
  readonly sent: boolean;

  constructor(cause: unknown, sent: boolean) {
    super('a middleware failed the attempt', { cause });
    this.sent = sent;
  }
}
