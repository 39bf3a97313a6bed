import { invalid } from './http.js';

const E164 = /^\+[1-9]\d{1,14}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An integer query parameter within [min, max], or `fallback` when absent. */
export function intParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number) {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw)) throw invalid(`${name} must be an integer`);
  const value = Number(raw);
  if (value < min || value > max) throw invalid(`${name} must be between ${min} and ${max}`);
  return value;
}

export function enumValue<T extends string>(value: unknown, name: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalid(`${name} must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

export function enumParam<T extends string>(
  query: URLSearchParams,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const raw = query.get(name);
  return raw === null ? undefined : enumValue(raw, name, allowed);
}

/**
 * An ISO 8601 date or date-time, in UTC when it names no zone. A bare date used as the end of a
 * period covers that whole day, so `to=2025-01-15` includes calls made on the 15th.
 */
export function dateParam(query: URLSearchParams, name: string, endOfPeriod = false): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const match = ISO_DATE.exec(raw);
  // Date.parse reads a date-time without a zone as local time: the answer would depend on the
  // machine's time zone. A bare date it already reads as UTC.
  const time = match
    ? Date.parse(match[1] !== undefined && match[4] === undefined ? `${raw}Z` : raw)
    : Number.NaN;
  // Date.parse rolls 2024-02-30 over to March 1st: the calendar day must survive the round trip.
  const day = raw.slice(0, 10);
  if (Number.isNaN(time) || new Date(Date.parse(day)).toISOString().slice(0, 10) !== day)
    throw invalid(`${name} must be an ISO 8601 date`);
  return endOfPeriod && raw.length === 10 ? time + 86_400_000 - 1 : time;
}

export function e164(value: unknown, name: string): string {
  if (typeof value !== 'string' || !E164.test(value)) throw invalid(`${name} must be an E.164 number`);
  return value;
}

export function optionalString(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(`${name} must be a string`);
  return value;
}

export function requiredString(body: Record<string, unknown>, name: string): string {
  const value = optionalString(body, name);
  if (value === undefined || value.trim() === '') throw invalid(`${name} is required`);
  return value;
}

export function optionalBoolean(body: Record<string, unknown>, name: string): boolean | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw invalid(`${name} must be a boolean`);
  return value;
}

/** Rejects body fields the spec does not list, so a misspelt field is not silently dropped. */
export function onlyFields(body: Record<string, unknown>, allowed: readonly string[]): void {
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) throw invalid(`Unknown field: ${unknown.join(', ')}`);
}

/** Levels of objects and arrays `custom_data` may hold, itself included (SPEC.md names no bound). */
export const CUSTOM_DATA_MAX_DEPTH = 32;
/** Bytes `custom_data` may take as JSON (UTF-8). SPEC.md: "size of custom_data: not shown". */
export const CUSTOM_DATA_MAX_BYTES = 65_536;

/** True when `value` nests objects or arrays more than `levels` deep; never descends further than that. */
function deeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return levels === 0 || Object.values(value).some((item) => deeperThan(item, levels - 1));
}

/**
 * A call's `custom_data`: a JSON object within {@link CUSTOM_DATA_MAX_DEPTH} levels and
 * {@link CUSTOM_DATA_MAX_BYTES}, as a copy of its JSON. Checked before the call is stored: every
 * answer and webhook event serializes it again, and a deeper one overflowed the stack there (a 500
 * after the call was stored, then the process ended on its first event). The copy keeps an object
 * handed to `simulateIncomingCall` and changed afterwards out of the stored call.
 */
export function customData(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`${name} must be an object`);
  }
  if (deeperThan(value, CUSTOM_DATA_MAX_DEPTH)) {
    throw invalid(`${name} may nest at most ${CUSTOM_DATA_MAX_DEPTH} levels of objects and arrays`);
  }
  let json: string;
  try {
    json = JSON.stringify(value);
  } catch {
    // Only reachable in-process (simulateIncomingCall): a BigInt, a throwing toJSON.
    throw invalid(`${name} must be JSON data`);
  }
  if (new TextEncoder().encode(json).byteLength > CUSTOM_DATA_MAX_BYTES) {
    throw invalid(`${name} may take at most ${CUSTOM_DATA_MAX_BYTES} bytes as JSON`);
  }
  return JSON.parse(json) as Record<string, unknown>;
}
