import { parseImfFixdate } from './http-date.js';

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
