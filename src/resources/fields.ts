/**
 * zod/mini field helpers shared by the resources' param and response schemas.
 */
import * as z from 'zod/mini';

/**
 * A string enum that stays open: unknown values from a newer service pass through, while editors
 * still suggest the documented ones (`'answered' | … | (string & {})`). The documented values are a
 * type argument (or an array argument, for inference): nothing checks them at run time, so the SDK's
 * schemas pass none and no bundle carries them.
 */
export function openEnum<const Documented extends string>(
  _documented?: readonly Documented[],
): z.ZodMiniType<Documented | (string & {})> {
  return z.string() as unknown as z.ZodMiniType<Documented | (string & {})>;
}

const E164 = /^\+[1-9]\d{1,14}$/;
// Hours 00–23, minutes and seconds 00–59 (RFC 3339's range, in the offset too): the day alone is left
// to isoDate's calendar check.
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?$/;

/**
 * A string that matches `pattern`, or `error`. A refinement rather than `z.regex`: the same verdict and
 * message, without zod's two string-format check types in every bundle.
 */
const matching = (pattern: RegExp, error: string) =>
  z.string().check(z.refine((text: string) => pattern.test(text), { error }));

/** A phone number in E.164 form (`+14155550123`). */
export const e164 = () => matching(E164, 'must be an E.164 number like +14155550123');

/**
 * An e-mail address, checked only for its shape (`local@domain`, no spaces): SPEC.md types it as a
 * string, and a stricter pattern refuses real addresses (`josé@example.com`, `user@例え.jp`).
 */
export const emailAddress = () => matching(/^[^\s@]+@[^\s@]+$/, 'must be an e-mail address');

const ISO_DATE_ERROR = 'must be an ISO 8601 date like 2024-01-31 or 2024-01-31T09:00:00Z';

/**
 * An ISO 8601 date or date-time string naming a real calendar date and time (`2024-02-30`, `T25:00`
 * or an offset beyond `±23:59` are refused), or a valid `Date` (sent as ISO 8601). One custom check rather
 * than a union of a string and `z.date()`: the same verdicts, without two more zod schema types in
 * every bundle.
 */
export const isoDate = () =>
  z.custom<string | Date>(
    (value) => {
      if (typeof value !== 'string') return value instanceof Date && !Number.isNaN(value.getTime());
      const [, year = 0, month = 0, day = 0] = ISO_DATE.exec(value)?.map(Number) ?? [];
      // `2024-02-30` would be March 1st; a string that does not match has month 0, which no date has.
      const date = new Date(Date.UTC(year, month - 1, day));
      return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
    },
    { error: ISO_DATE_ERROR },
  );

/**
 * A JSON object with any keys and values (`custom_data`): what `z.record(z.string(), z.unknown())`
 * accepts — an object that is not an array, whose prototype is a plain object's — checked in place
 * instead of copied, and without zod's record type in every bundle.
 */
export const anyObject = () =>
  z.custom<Record<string, unknown>>(
    (value) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
      const { constructor: make } = value as { constructor?: unknown };
      if (typeof make !== 'function') return true;
      const prototype: unknown = make.prototype;
      return typeof prototype === 'object' && prototype !== null && Object.hasOwn(prototype, 'isPrototypeOf');
    },
    { error: 'expected record' },
  );

/** Nesting deeper than this is refused in JSON params: the service has no use for it, and a cycle ends here. */
const MAX_JSON_DEPTH = 64;

/**
 * Why `value` is not JSON data that `JSON.stringify` sends as it is, with the keys of the part at
 * fault put into `path` (outermost first); `undefined` when it is.
 */
function jsonProblem(value: unknown, depth: number, path: PropertyKey[]): string | undefined {
  if (typeof value === 'number')
    return Number.isFinite(value) ? undefined : `${value} is not JSON (it would be sent as null)`;
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || value instanceof Date)
    return undefined;
  if (typeof value !== 'object') return `a ${typeof value} is not JSON`;
  if (depth === 0) return `nests deeper than ${MAX_JSON_DEPTH} levels`;
  const array = Array.isArray(value);
  for (const [key, item] of Object.entries(value)) {
    // An undefined property is left out, as JSON.stringify does; in an array it would become null.
    const problem = item === undefined && !array ? undefined : jsonProblem(item, depth - 1, path);
    if (problem !== undefined) {
      path.unshift(array ? Number(key) : key);
      return problem;
    }
  }
  return undefined;
}

/**
 * {@link anyObject} whose every value is JSON data sent as it is: no `NaN` or `Infinity` (sent as
 * `null`), no function, symbol or bigint, no nesting past 64 levels (or a cycle). A `Date` is sent as
 * ISO 8601. The issue names the field (`custom_data.crm.score`).
 */
export const jsonObject = () =>
  anyObject().check(
    z.check<Record<string, unknown>>((payload) => {
      const path: PropertyKey[] = [];
      const message = jsonProblem(payload.value, MAX_JSON_DEPTH, path);
      if (message !== undefined) payload.issues.push({ code: 'custom', input: payload.value, path, message });
    }),
  );

const URL_ERROR = 'must be an absolute URL like https://example.com/hooks';

/**
 * An absolute `http:` or `https:` URL, with a host: `javascript:`, `file:` or a relative URL is refused.
 * Checked and sent as `z.url({ protocol: /^https?$/ })` does (surrounding white space trimmed, tabs and
 * newlines dropped), without zod's URL type in every bundle.
 */
export const httpUrl = () =>
  z.string({ error: URL_ERROR }).check(
    // One check that refuses or rewrites: `z.overwrite` would add a zod check type to every bundle.
    z.check<string>((payload) => {
      const url = payload.value.trim();
      try {
        // `http://` or `https://`, then what the URL parser accepts (so a host): it throws otherwise.
        if (/^https?:\/\//i.test(url)) {
          new URL(url);
          payload.value = url.replace(/[\t\n\r]/g, '');
          return;
        }
      } catch {
        // Not a URL: refused below.
      }
      payload.issues.push({ code: 'custom', input: payload.value, message: URL_ERROR });
    }),
  );

// The helpers below say in the words the SDK has always used what zod's int, enum and minLength check,
// through one check each: those three types are ≈ 1 kB gzip of zod in every browser bundle.

/** An integer within bounds, for limits and page numbers. */
export const intBetween = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.number().check(
    z.refine(Number.isInteger, { error: 'expected int', abort: true }),
    z.refine((n: number) => n >= min, { error: `must be ≥ ${min}`, abort: true }),
    z.refine((n: number) => n <= max, { error: `must be ≤ ${max}` }),
  );

/** One of `values`; the type is their union. */
export const oneOf = <const Values extends readonly [string, ...string[]]>(values: Values) =>
  z.custom<Values[number]>((value) => values.includes(value as string), {
    error: `must be one of ${values.map((value) => JSON.stringify(value)).join(', ')}`,
  });

/** Not empty (a string or an array), or `error`. */
export const notEmpty = (error: string) =>
  z.refine<{ length: number }>((value) => value.length > 0, { error });
