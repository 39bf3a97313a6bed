import { TelephonyError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { type Middleware, MiddlewareFailure } from '../../../src/core/transport/middleware.js';
import { throughMiddleware } from '../../../src/core/transport/middleware-chain.js';

const context = { operation: 'calls.create', attempt: 0, requestId: 'req_1' };
const request = () => new Request('https://api.test/v2/calls', { method: 'POST', body: '{}' });

/** A `send` that records what reached it. */
function sender(answer: () => Promise<Response> = async () => new Response('ok')) {
  const seen: Request[] = [];
  const send = (sent: Request) => {
    seen.push(sent);
    return answer();
  };
  return { seen, send };
}

/** What the chain rejected with, as a MiddlewareFailure. */
async function failure(promise: Promise<unknown>): Promise<MiddlewareFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MiddlewareFailure);
  return error as MiddlewareFailure;
}

describe('throughMiddleware', () => {
  it('runs the chain in order around send, with the context, and may change request and response', async () => {
    const order: string[] = [];
    const tag =
      (name: string): Middleware =>
      async (req, next, ctx) => {
        order.push(`${name} ${ctx.operation} ${ctx.attempt} ${ctx.requestId}`);
        req.headers.set(`x-${name}`, '1');
        const response = await next(req);
        order.push(`${name} after`);
        return new Response(`${await response.text()} ${name}`, response);
      };
    const { seen, send } = sender();
    const response = await throughMiddleware([tag('a'), tag('b')], request(), context, send);
    expect(await response.text()).toBe('ok b a');
    expect(order).toEqual(['a calls.create 0 req_1', 'b calls.create 0 req_1', 'b after', 'a after']);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers.get('x-a')).toBe('1');
    expect(seen[0]?.headers.get('x-b')).toBe('1');
  });

  it('no middleware: send, once', async () => {
    const { seen, send } = sender();
    expect(await (await throughMiddleware([], request(), context, send)).text()).toBe('ok');
    expect(seen).toHaveLength(1);
  });

  it('a second next() rejects and sends nothing more: a POST is sent once', async () => {
    const { seen, send } = sender();
    let second: unknown;
    const twice: Middleware = async (req, next) => {
      const first = await next(req);
      second = await next(req.clone()).catch((e: unknown) => e);
      return first;
    };
    await throughMiddleware([twice], request(), context, send);
    expect(seen).toHaveLength(1);
    expect(second).toBeInstanceOf(TelephonyError);
    expect((second as Error).message).toMatch(/called twice/);
  });

  it('a middleware that retries by itself fails the attempt as sent, and the service saw one request', async () => {
    const { seen, send } = sender(async () => new Response('busy', { status: 503 }));
    const retrying: Middleware = async (req, next) => {
      const first = await next(req);
      return first.status === 503 ? next(req) : first;
    };
    const error = await failure(throughMiddleware([retrying], request(), context, send));
    expect(error.sent).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('next() after the attempt ended rejects and sends nothing', async () => {
    const { seen, send } = sender();
    let later: (() => Promise<Response>) | undefined;
    const cached: Middleware = async (_req, next) => {
      later = () => next();
      return new Response('cached');
    };
    expect(await (await throughMiddleware([cached], request(), context, send)).text()).toBe('cached');
    await expect(later?.()).rejects.toThrow(/after the attempt ended/);
    expect(seen).toHaveLength(0);
  });

  it('a throw before next is a failure that sent nothing; after next, one that sent', async () => {
    const cause = new Error('no header for you');
    const before = await failure(
      throughMiddleware(
        [
          () => {
            throw cause;
          },
        ],
        request(),
        context,
        sender().send,
      ),
    );
    expect(before).toMatchObject({ sent: false, cause });
    const after = await failure(
      throughMiddleware(
        [
          async (req, next) => {
            await next(req);
            throw cause;
          },
        ],
        request(),
        context,
        sender().send,
      ),
    );
    expect(after).toMatchObject({ sent: true, cause });
  });

  it("send's own failure comes out as thrown, through middleware that passes it on", async () => {
    const dropped = new TypeError('fetch failed');
    const { send } = sender(() => Promise.reject(dropped));
    const passOn: Middleware = (req, next) => next(req);
    await expect(throughMiddleware([passOn, passOn], request(), context, send)).rejects.toBe(dropped);
  });

  it('another origin is refused before anything is sent; the same origin with another path is sent', async () => {
    const { seen, send } = sender();
    const elsewhere: Middleware = (req, next) => next(new Request('https://evil.test/steal', req));
    const error = await failure(throughMiddleware([elsewhere], request(), context, send));
    expect(error.sent).toBe(false);
    expect(String((error.cause as Error).message)).toMatch(/another origin/);
    expect(seen).toHaveLength(0);
    const moved: Middleware = (req, next) => next(new Request('https://api.test/v2/calls?trace=1', req));
    await throughMiddleware([moved], request(), context, send);
    expect(seen.map((r) => r.url)).toEqual(['https://api.test/v2/calls?trace=1']);
  });

  it('a middleware that resolves to no Response fails the attempt', async () => {
    const nothing = (() => Promise.resolve(undefined)) as unknown as Middleware;
    const error = await failure(throughMiddleware([nothing], request(), context, sender().send));
    expect(error.sent).toBe(false);
    expect((error.cause as Error).message).toMatch(/did not resolve to a Response/);
  });
});
