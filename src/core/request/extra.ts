import type * as z from 'zod/mini';
import { invalid } from '../errors.js';
import type { QueryValue } from '../types.js';
import { clip } from '../zod-issues.js';

/** The per-call options that send what this SDK version does not know yet. */
export type ExtraOption = 'extraQuery' | 'extraBody';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

const isQueryValue = (value: unknown): value is QueryValue =>
  value === null ||
  value === undefined ||
  value instanceof Date ||
  ['string', 'number', 'boolean'].includes(typeof value);

/** The keys an object schema names (through a pipe, to its input); none for any other schema. */
export function paramNames(schema: z.core.$ZodType): string[] {
  let def = schema._zod.def as z.core.$ZodTypeDef & { in?: z.core.$ZodType; shape?: object };
  while (def.type === 'pipe' && def.in !== undefined) def = def.in._zod.def;
  return def.type === 'object' && def.shape !== undefined ? Object.keys(def.shape) : [];
}

/**
 * Refuses an `extraQuery` or `extraBody` key that the typed params name: what the SDK knows is checked
 * by its schema, and a key sent as extra would skip that check (or be sent twice).
 */
export function refuseNamed(
  extra: object | undefined,
  names: readonly string[],
  option: ExtraOption,
  operation: string,
): void {
  if (extra === undefined) return;
  for (const key of Object.keys(extra))
    if (names.includes(key))
      throw invalid(
        clip(operation, 100),
        `${option}.${clip(key)}`,
        `is a typed parameter: pass it with the params`,
      );
}

/** `query` with `extraQuery` merged in; a key already in `query`, or a value a query cannot hold, is refused. */
export function withExtraQuery(
  query: Record<string, QueryValue> | undefined,
  extra: unknown,
  operation: string,
): Record<string, QueryValue> | undefined {
  if (extra === undefined) return query;
  if (!isPlainObject(extra)) throw invalid(clip(operation, 100), 'extraQuery', 'must be an object');
  refuseNamed(extra, Object.keys(query ?? {}), 'extraQuery', operation);
  for (const key in extra)
    if (!isQueryValue(extra[key]))
      throw invalid(
        clip(operation, 100),
        `extraQuery.${clip(key)}`,
        'must be a string, number, boolean, Date or null',
      );
  return { ...query, ...(extra as Record<string, QueryValue>) };
}

/**
 * `body` with `extraBody` merged in. Only a call with a JSON object body takes one (a GET, a DELETE or
 * the token request has none); a key already in `body` is refused.
 */
export function withExtraBody(body: unknown, extra: unknown, operation: string): unknown {
  if (extra === undefined) return body;
  if (!isPlainObject(extra)) throw invalid(clip(operation, 100), 'extraBody', 'must be an object');
  if (!isPlainObject(body))
    throw invalid(clip(operation, 100), 'extraBody', 'this call has no JSON object body to add to');
  refuseNamed(extra, Object.keys(body), 'extraBody', operation);
  return { ...body, ...extra };
}
