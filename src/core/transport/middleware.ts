import { TelephonyError } from '../errors.js';

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

const isResponse = (value: unknown): value is Response =>
  typeof (value as Response | null)?.status === 'number' &&
  typeof (value as Response).headers?.get === 'function';

/**
 * One attempt through the chain: each middleware in order, then `send` (ky's fetch). A failure of
 * `send` itself comes out as thrown, for the attempt's own mapping; any other failure is a
 * {@link MiddlewareFailure}.
 */
export async function throughMiddleware(
  chain: readonly Middleware[],
  request: Request,
  context: MiddlewareContext,
  send: (request: Request) => Promise<Response>,
): Promise<Response> {
  const origin = new URL(request.url).origin;
  let sent = false;
  let settled = false;
  let sendFailure: { error: unknown } | undefined;
  const layer = (index: number, current: Request): Promise<Response> => {
    const middleware = chain[index];
    if (middleware === undefined) {
      sent = true;
      return send(current).catch((error: unknown) => {
        sendFailure = { error };
        throw error;
      });
    }
    let called = false;
    const next = async (nextRequest: Request = current): Promise<Response> => {
      if (called) throw new TelephonyError('next() was called twice in one attempt: a request is sent once');
      if (settled) throw new TelephonyError('next() was called after the attempt ended');
      called = true;
      // The credential is set for the service's origin: it must not go to another host.
      if (new URL(nextRequest.url).origin !== origin)
        throw new TelephonyError(`a middleware may not send the request to another origin than ${origin}`);
      return layer(index + 1, nextRequest);
    };
    return Promise.resolve(middleware(current, next, context)).then((response) => {
      if (!isResponse(response))
        throw new TelephonyError(`middleware ${index} did not resolve to a Response`);
      return response;
    });
  };
  try {
    return await layer(0, request);
  } catch (error) {
    if (sendFailure !== undefined && error === sendFailure.error) throw error;
    throw new MiddlewareFailure(error, sent);
  } finally {
    settled = true;
  }
}
