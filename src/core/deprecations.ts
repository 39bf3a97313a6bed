import type { DeprecatedWarning, V1DeprecatedWarning } from './events.js';
import { deprecationOf } from './response/deprecation.js';
import type { HttpMethod } from './types.js';

/** SPEC.md, Versioning: v1's deprecation date. */
const V1_DEPRECATED_ON = '2023-12-31';
/** Paths remembered as warned about: a client calling many ids of a deprecated path must not grow forever. */
const REMEMBERED = 256;

const isoOf = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/**
 * The deprecation warnings of one client, each said once: `v1_deprecated` at its first v1 call, and
 * `deprecated` for each method and path whose answer carries `Deprecation` or `Sunset`.
 */
export class Deprecations {
  #v1Said = false;
  readonly #said = new Set<string>();

  /** The `v1_deprecated` warning, the first time a v1 call is made; `undefined` after. */
  v1Call(requestId: string): V1DeprecatedWarning | undefined {
    if (this.#v1Said) return undefined;
    this.#v1Said = true;
    return {
      code: 'v1_deprecated',
      message: `API v1 (users, legacyCalls, /v1/ paths) is deprecated since 31 December 2023 (the service's versioning policy): its behaviour after that date is not specified, and it may change or stop without notice`,
      deprecatedOn: V1_DEPRECATED_ON,
      requestId,
    };
  }

  /** The `deprecated` warning for an answer that carries the headers, the first time for its method and path. */
  answered(
    method: HttpMethod,
    url: string,
    headers: Headers,
    requestId: string,
  ): DeprecatedWarning | undefined {
    const notice = deprecationOf(headers);
    if (notice === undefined) return undefined;
    const path = new URL(url).pathname;
    const key = `${method} ${path}`;
    if (this.#said.has(key) || this.#said.size >= REMEMBERED) return undefined;
    this.#said.add(key);
    const deprecation = isoOf(notice.deprecatedAt);
    const sunset = isoOf(notice.sunsetAt);
    const parts = [
      deprecation === undefined ? 'is deprecated' : `is deprecated as of ${deprecation}`,
      sunset !== undefined && `and will stop answering after ${sunset}`,
    ];
    return {
      code: 'deprecated',
      message: `${key} ${parts.filter(Boolean).join(' ')}, the service says (Deprecation/Sunset headers)`,
      method,
      path,
      deprecation,
      sunset,
      requestId,
    };
  }
}
