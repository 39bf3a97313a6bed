import type { DeprecatedWarning } from '../events.js';
import type { HttpMethod } from '../types.js';
import { parseImfFixdate } from './http-date.js';

// The service's deprecation notices: the headers of an answer that marks its resource deprecated
// (RFC 9745, RFC 8594), and the warning a client says once for each. Loaded by `import()` at the
// first answer that carries one of the headers (call.ts); v1's warning is v1-deprecated.ts.

/** What an answer's `Deprecation` and `Sunset` headers say; `undefined` fields were not given (or unreadable). */
export interface DeprecationNotice {
  /** When the resource was (or will be) deprecated, ms since the epoch; `undefined` for a bare `true`. */
  deprecatedAt: number | undefined;
  /** When the resource will stop answering, ms since the epoch. */
  sunsetAt: number | undefined;
}

// RFC 9745 §2.1: a Structured Field Date (RFC 9651 §3.3.7), `@` and an integer of at most 15 digits.
const SF_DATE = /^@(-?\d{1,15})$/;

/**
 * `Deprecation` (RFC 9745): `@<unix seconds>`, or the forms of the drafts before it that services still
 * send, `true` and an HTTP-date. `false` when absent or unreadable (the RFC: a recipient ignores an
 * invalid value); otherwise `true` or the date in ms since the epoch.
 */
export function parseDeprecation(header: string | null): number | boolean {
  if (header === null) return false;
  const value = header.trim();
  const date = SF_DATE.exec(value);
  if (date !== null) return Number(date[1]) * 1000;
  if (value.toLowerCase() === 'true') return true;
  return parseImfFixdate(value) ?? false;
}

/** `Sunset` (RFC 8594): an HTTP-date, in ms since the epoch; `undefined` when absent or unreadable. */
export function parseSunset(header: string | null): number | undefined {
  return header === null ? undefined : parseImfFixdate(header.trim());
}

/** The notice an answer carries, or `undefined` when it has neither header (in a form that can be read). */
export function deprecationOf(headers: Headers): DeprecationNotice | undefined {
  const deprecation = parseDeprecation(headers.get('deprecation'));
  const sunsetAt = parseSunset(headers.get('sunset'));
  if (deprecation === false && sunsetAt === undefined) return undefined;
  return { deprecatedAt: typeof deprecation === 'number' ? deprecation : undefined, sunsetAt };
}

/** Paths remembered as warned about: a client calling many ids of a deprecated path must not grow forever. */
const REMEMBERED = 256;

const isoOf = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** The `deprecated` warnings of one client: one for each method and path whose answer carries `Deprecation` or `Sunset`. */
export class Deprecations {
  readonly #said = new Set<string>();

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
