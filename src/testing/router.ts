import type { CallStore } from './calls.js';
import * as calls from './calls-routes.js';
import type { Credentials, Principal } from './credentials.js';
import {
  type ApiVersion,
  errorResponse,
  invalid,
  json,
  notFound,
  readBody,
  routeOf,
  SandboxError,
} from './http.js';
import { listLegacyCalls } from './legacy-calls-route.js';
import type { RateLimiter } from './rate-limit.js';
import type { Users } from './users.js';
import type { Webhooks } from './webhooks.js';

/** The state the routes act on. */
export interface World {
  now: () => number;
  credentials: Credentials;
  rateLimiter: RateLimiter;
  calls: CallStore;
  users: Users;
  webhooks: Webhooks;
  accountNumber: string;
}

type Handler = (
  request: Request,
  query: URLSearchParams,
  principal: Principal,
  id: string,
) => Response | Promise<Response>;

interface Route {
  version: ApiVersion;
  method: string;
  /** Path after /v1 or /v2; `:id` matches one segment. */
  pattern: string;
  handler: (world: World) => Handler;
}

const ROUTES: Route[] = [
  {
    version: 'v2',
    method: 'GET',
    pattern: '/calls/recent',
    handler: (w) => (_r, q, p) => calls.listRecent(w.calls, q, p),
  },
  {
    version: 'v2',
    method: 'GET',
    pattern: '/calls/stats',
    handler: (w) => (_r, q, p) => calls.callStats(w.calls, q, p),
  },
  {
    version: 'v2',
    method: 'GET',
    pattern: '/calls/:id',
    handler: (w) => (_r, _q, p, id) => calls.getCall(w.calls, id, p),
  },
  {
    version: 'v2',
    method: 'GET',
    pattern: '/calls/:id/recording',
    handler: (w) => (_r, _q, p, id) => calls.getRecording(w.calls, id, p),
  },
  {
    version: 'v2',
    method: 'POST',
    pattern: '/calls',
    handler: (w) => (r, _q, p) => calls.createCall(w.calls, r, p, w.accountNumber),
  },
  {
    version: 'v2',
    method: 'DELETE',
    pattern: '/calls/:id',
    handler: (w) => (_r, _q, p, id) => calls.endCall(w.calls, id, p),
  },
  {
    version: 'v2',
    method: 'POST',
    pattern: '/calls/:id/transfer',
    handler: (w) => (r, _q, p, id) => calls.transferCall(w.calls, id, r, p),
  },
  {
    version: 'v2',
    method: 'POST',
    pattern: '/webhooks',
    handler: (w) => (r, _q, p) => w.webhooks.create(r, p),
  },
  { version: 'v1', method: 'GET', pattern: '/calls', handler: (w) => (_r, q) => listLegacyCalls(w.calls, q) },
  { version: 'v1', method: 'GET', pattern: '/users', handler: (w) => (_r, q, p) => w.users.list(q, p) },
  { version: 'v1', method: 'POST', pattern: '/users', handler: (w) => (r, _q, p) => w.users.create(r, p) },
  {
    version: 'v1',
    method: 'GET',
    pattern: '/users/:id',
    handler: (w) => (_r, _q, p, id) => w.users.get(id, p),
  },
  {
    version: 'v1',
    method: 'PATCH',
    pattern: '/users/:id',
    handler: (w) => (r, _q, p, id) => w.users.update(id, r, p),
  },
  {
    version: 'v1',
    method: 'DELETE',
    pattern: '/users/:id',
    handler: (w) => (_r, _q, p, id) => w.users.delete(id, p),
  },
];

/** A malformed escape (`%E0%A4%A`) names no stored id: kept as sent, it ends in a 404, not a 500. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function match(route: Route, path: string): string | undefined {
  const want = route.pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  let id = '';
  for (const [index, part] of want.entries()) {
    const actual = got[index] ?? '';
    if (part === ':id') {
      if (actual === '') return undefined;
      id = decodeSegment(actual);
    } else if (part !== actual) return undefined;
  }
  return id;
}

async function token(world: World, request: Request): Promise<Response> {
  if (!(request.headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded')) {
    throw invalid('The token request must be application/x-www-form-urlencoded');
  }
  const form = new URLSearchParams(await readBody(request));
  const issued = world.credentials.issueToken(form, world.now());
  // Counted for the report only: the token endpoint draws on no budget and never answers 429.
  world.rateLimiter.tokenIssued(form.get('client_id') ?? '');
  return json(issued);
}

/**
 * Answers one request against the world, in the shapes of the path's version. `onPrincipal` hears
 * who the request was accepted as (before the rate limit is applied), for the activity feed.
 */
export async function route(
  world: World,
  request: Request,
  onPrincipal: (principal: Principal) => void = () => {},
): Promise<Response> {
  const url = new URL(request.url);
  const { version, path } = routeOf(url.pathname);
  try {
    if (version === 'v2' && path === '/oauth/token' && request.method === 'POST')
      return await token(world, request);
    // The credential is checked before the route is looked up (SPEC.md, Authentication 9: a
    // missing, invalid or expired credential gives 401), so an unknown or unimplemented path
    // answers 401 without one and 404 only to an authenticated caller. CORS preflights never get
    // here: withCors answers them first.
    const authorization = request.headers.get('authorization');
    const principal =
      version === 'v2'
        ? world.credentials.fromToken(authorization, world.now())
        : world.credentials.fromApiKey(authorization);
    onPrincipal(principal);
    world.rateLimiter.take(principal, world.now());
    for (const candidate of ROUTES) {
      if (candidate.version !== version || candidate.method !== request.method) continue;
      const id = match(candidate, path);
      if (id === undefined) continue;
      return await candidate.handler(world)(request, url.searchParams, principal, id);
    }
    throw notFound(`No route for ${request.method} ${url.pathname}`);
  } catch (error) {
    if (error instanceof SandboxError) return errorResponse(version, error);
    return errorResponse(version, new SandboxError(500, 'server_error', 'Internal sandbox error'));
  }
}
