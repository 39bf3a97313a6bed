import { type ApiVersion, invalid } from '../errors.js';
import type { HttpMethod, QueryValue, RawRequest } from '../types.js';
import { clip } from '../zod-issues.js';
import { apiVersionOf } from './request-path.js';

// The route of a shaped request: its method, API version, URL with the query, and headers.

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** `'post'` and `'Post'` are POST, so the retry policy recognises them; an unknown method is refused. */
export function methodOf(method: string): HttpMethod {
  const upper = typeof method === 'string' ? (method.toUpperCase() as HttpMethod) : undefined;
  if (upper !== undefined && METHODS.includes(upper)) return upper;
  throw invalid(
    `Unsupported method ${String(method).slice(0, 16)}`,
    'method',
    `must be one of ${METHODS.join(', ')}`,
  );
}

/** Longest path an operation's name shows. */
const NAMED_PATH = 200;

/** `"GET /v2/calls/recent"`: how messages and errors name an operation (a path past 200 characters is cut). */
export const operationName = (spec: { method: string; path: string }) =>
  `${spec.method} ${spec.path.length > NAMED_PATH ? clip(spec.path, NAMED_PATH) : spec.path}`;

/** Where a request goes. */
export interface Target {
  version: ApiVersion;
  url: string;
  /**
   * An absolute URL as messages and events show it: without its query string, which for a recording
   * is a pre-signed URL's signature. `undefined` for a path, shown as is.
   */
  shown: string | undefined;
}

/**
 * Where a request goes: its API version (by path) and full URL. An absolute URL (a recording's) is
 * accepted only on the configured origin of its version, under the base's path prefix, so a
 * credential never goes to another host.
 */
export function resolveTarget(
  request: RawRequest,
  allowAbsolute: boolean,
  baseUrl: string | undefined,
  baseUrlV1: string | undefined,
): Target {
  let path = request.path;
  let absolute: URL | undefined;
  if (allowAbsolute && /^https?:\/\//.test(path)) {
    let url: URL;
    try {
      url = new URL(path);
    } catch {
      // Not echoed: a pre-signed URL carries its signature.
      throw invalid('Invalid request path', 'path', 'must be a URL');
    }
    absolute = url;
    // The host is checked before the path, so a foreign URL is refused for what it is.
    const bases = [baseUrl, baseUrlV1]
      .flatMap((base) => (base === undefined ? [] : [new URL(base)]))
      .filter((base) => base.origin === url.origin)
      .map((base) => base.pathname.replace(/\/$/, ''));
    if (bases.length === 0) throw refuse(url.origin, 'baseUrl or baseUrlV1');
    // Under a base with a path prefix (a gateway's /telephony), the API path follows the prefix.
    const prefix = bases.find((base) => url.pathname.startsWith(`${base}/v`)) ?? '';
    path = url.pathname.slice(prefix.length);
  }
  const version = apiVersionOf(path);
  const base = version === 'v2' ? baseUrl : baseUrlV1;
  const option = version === 'v2' ? 'baseUrl' : 'baseUrlV1';
  if (base === undefined) {
    throw invalid(
      operationName({ method: request.method, path }),
      option,
      `set ${option} to call ${version} paths`,
    );
  }
  if (absolute !== undefined) {
    const expected = new URL(joinUrl(base, path));
    // Same host, outside the base's path prefix: not where the credential is meant to go either.
    if (absolute.origin !== expected.origin || absolute.pathname !== expected.pathname)
      throw refuse(absolute.origin + absolute.pathname, option);
  }
  const url = absolute !== undefined ? absolute.href : joinUrl(base, path);
  return {
    version,
    url: withQuery(url, request.query),
    shown: absolute && absolute.origin + absolute.pathname,
  };
}

function refuse(target: string, option: string) {
  return invalid(`Refusing to send credentials to ${clip(target, 200)}`, 'path', `must be under ${option}`);
}

/** Appends `path` to `base` keeping any path prefix of `base` (`new URL('/v2/x', base)` would drop it). */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/$/, '') + path;
}

/**
 * `undefined`/`null` dropped, `Date` as ISO 8601, numbers and booleans as their string form. Anything
 * else (an object, a symbol, an invalid date) is a `ValidationError` naming `query.<key>`.
 */
export function withQuery(url: string, query: Record<string, QueryValue> | undefined): string {
  if (query === undefined) return url;
  if (typeof query !== 'object' || query === null)
    throw invalid('Invalid query', 'query', 'must be an object');
  let search = '';
  for (const key in query) {
    const value = query[key];
    if (value === undefined || value === null) continue;
    const text = queryText(value, key);
    search += `${search === '' ? '' : '&'}${encodeURIComponent(key)}=${encodeURIComponent(text)}`;
  }
  if (search === '') return url;
  return `${url}${url.includes('?') ? '&' : '?'}${search}`;
}

function queryText(value: unknown, key: string): string {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  const path = `query.${clip(key, 100)}`;
  throw invalid(`Invalid ${path}`, path, 'must be a string, number, boolean, valid Date, null or undefined');
}

/** Lower-cased copy of `base` plus the extra headers; `authorization` is never taken from the caller. */
export function mergeHeaders(
  base: Record<string, string>,
  ...extras: Array<Record<string, string> | undefined>
): Record<string, string> {
  const merged = { ...base };
  for (const extra of extras) {
    for (const name in extra) {
      const lower = name.toLowerCase();
      if (lower !== 'authorization') merged[lower] = extra[name] as string;
    }
  }
  return merged;
}
