import { type ApiVersion, invalid } from '../errors.js';
import type { RawRequest } from '../types.js';
import { clip } from '../zod-issues.js';
import { operationName } from './method.js';
import { apiVersionOf } from './request-path.js';
import { joinUrl, withQuery } from './url.js';

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
