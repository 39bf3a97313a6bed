import { TelephonyError } from '../errors.js';
import { type Middleware, type MiddlewareContext, MiddlewareFailure } from './middleware.js';

// The chain's runner, loaded by `import()` when a client with middleware is made (call.ts): a client
// without middleware, as most browser clients are, does not load it.

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
