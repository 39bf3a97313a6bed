/**
 * The "body already read" message for the framework that read it, recognised from a mark it leaves
 * on node's request or response (each checked against a real instance in the tests); a framework
 * left unrecognised gets the general advice rather than another framework's.
 */

const GENERAL =
  'Body already read by a body parser: mount the receiver before it, or pass the exact bytes as a Buffer in req.body';

const EXPRESS =
  "Body already read by a body parser: mount the receiver before it, or use express.raw({ type: 'application/json' }) on its route (NestJS: NestFactory.create(AppModule, { rawBody: true }), then receiver.handle({ body: req.rawBody, headers: req.headers }))";

const FASTIFY =
  "Body already read by Fastify's JSON parser: in the receiver's plugin, addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => done(null, body)), then receiver.handle({ body: request.body, headers: request.headers })";

const KOA =
  'Body already read by a body parser: mount the receiver before it, set ctx.respond = false, then receiver.nodeHandler(ctx.req, ctx.res)';

/** A property of a value that may not be an object, without trusting its shape. */
function read(value: unknown, key: string): unknown {
  return typeof value === 'object' || typeof value === 'function'
    ? (value as Record<string, unknown> | null)?.[key]
    : undefined;
}

/** The message naming the fix for the framework around `req` and `res`, or the general one. */
export function bodyAlreadyReadMessage(req: object, res: object): string {
  // Express (and NestJS, which runs on it by default) sets req.app to the application.
  const app = read(req, 'app');
  if (typeof app === 'function' && read(app, 'settings') !== undefined) return EXPRESS;
  // Koa sets every response's status to 404 before its middleware runs; node's own default (200) is inherited.
  if (Object.hasOwn(res, 'statusCode') && read(res, 'statusCode') === 404) return KOA;
  // Fastify's server keeps connections open 72 s by default; node's keeps them 5 s.
  if (read(read(read(req, 'socket'), 'server'), 'keepAliveTimeout') === 72_000) return FASTIFY;
  return GENERAL;
}
