/**
 * `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) headers on the answers of a version's paths, so
 * a test can see how a client warns about a deprecated API. The real service's headers are not
 * shown in SPEC.md: the sandbox sends none unless told.
 */
import { type ApiVersion, routeOf } from './http.js';

/** The header values sent, exactly as given. */
export interface DeprecationHeaders {
  /** The `Deprecation` value: when the version was deprecated, as RFC 9745 writes it (`@1703980800`). */
  deprecation: string;
  /** The `Sunset` value: when it stops working, an HTTP date (`Wed, 31 Dec 2025 23:59:59 GMT`). */
  sunset?: string;
}

/** Per version: the headers every answer of its paths carries. */
export type DeprecationOption = Partial<Record<ApiVersion, DeprecationHeaders>>;

/** Wraps a sandbox handler: answers of a listed version's paths get its headers. */
export function withDeprecation(
  handle: (request: Request) => Promise<Response>,
  option: DeprecationOption | undefined,
): (request: Request) => Promise<Response> {
  if (option === undefined) return handle;
  return async (request) => {
    const response = await handle(request);
    const headers = option[routeOf(new URL(request.url).pathname).version];
    // A lost connection (`Response.error()`) has no headers to add to.
    if (!headers || response.type === 'error') return response;
    response.headers.set('deprecation', headers.deprecation);
    if (headers.sunset !== undefined) response.headers.set('sunset', headers.sunset);
    return response;
  };
}
