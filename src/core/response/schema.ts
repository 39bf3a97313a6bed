/**
 * zod/mini helpers shared by every resource, and the one place responses are checked.
 *
 * zod/mini keeps the bundle small but walks loose objects slowly (≈180 µs for a 100-call page).
 * So each response schema is compiled once, lazily, into a plain-JS guard that checks a value in
 * place (no copy: valid input is returned as is, extra fields included). It agrees with zod's
 * `safeParse` on every value, verdict and output (test/unit/core/schema-guard.test.ts): it compiles
 * only plain string, number, boolean, unknown, optional, nullable, array and loose object nodes; any
 * other node or check is zod's, and when zod's output would not be the value itself (a default, a
 * transform, a stripped key, a record or an odd object it copies) zod parses the whole value. One
 * exception JSON cannot produce: a symbol key on a loose object is kept (zod drops it).
 */
import * as z from 'zod/mini';
import { ResponseValidationError, ValidationError, type ValidationIssue } from '../errors.js';

type AnySchema = z.core.$ZodType;

/**
 * A string enum that stays open: unknown values from a newer service pass through, while editors
 * still suggest the documented ones (`'answered' | … | (string & {})`).
 */
export function openEnum<const Values extends readonly string[]>(
  _documented: Values,
): z.ZodMiniType<Values[number] | (string & {})> {
  return z.string() as unknown as z.ZodMiniType<Values[number] | (string & {})>;
}

const E164 = /^\+[1-9]\d{1,14}$/;
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?$/;

/**
 * ISO 8601 form and a real calendar date and time: `2024-02-30`, `T25:00` or an offset beyond
 * `±23:59` (RFC 3339's range: hours 00–23, minutes 00–59) are refused.
 */
function isIsoDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (match === null) return false;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = match
    .slice(1)
    .map((part) => Number(part ?? 0));
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59
  );
}

/** A phone number in E.164 form (`+14155550123`). */
export const e164 = () =>
  z.string().check(z.regex(E164, { error: 'must be an E.164 number like +14155550123' }));

/**
 * An e-mail address, checked only for its shape (`local@domain`, no spaces): SPEC.md types it as a
 * string, and a stricter pattern refuses real addresses (`josé@example.com`, `user@例え.jp`).
 */
export const emailAddress = () =>
  z.string().check(z.regex(/^[^\s@]+@[^\s@]+$/, { error: 'must be an e-mail address' }));

const ISO_DATE_ERROR = 'must be an ISO 8601 date like 2024-01-31 or 2024-01-31T09:00:00Z';

/** An ISO 8601 date or date-time string, or a valid `Date` (sent as ISO 8601). */
export const isoDate = () =>
  z.union([z.string().check(z.refine(isIsoDate, { error: ISO_DATE_ERROR })), z.date()], {
    error: ISO_DATE_ERROR,
  });

/** An absolute `http:` or `https:` URL, with a host: `javascript:`, `file:` or a relative URL is refused. */
export const httpUrl = () =>
  z.url({ protocol: /^https?$/, error: 'must be an absolute URL like https://example.com/hooks' });

/** An integer within bounds, for limits and page numbers. */
export const intBetween = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.int().check(z.minimum(min), z.maximum(max));

const UNLOCALIZED = 'Invalid input';

/** Readable English for a zod issue (zod/mini ships no locale, so its own text is only "Invalid input"). */
function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  // Optional fields never fail when absent, so an issue on `undefined` is a missing required field.
  if (valueAt(input, issue.path) === undefined && issue.code !== 'unrecognized_keys') return 'is required';
  if (issue.message !== UNLOCALIZED) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'too_small':
      return issue.origin === 'array'
        ? `must have at least ${issue.minimum} item(s)`
        : `must be ≥ ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'array'
        ? `must have at most ${issue.maximum} item(s)`
        : `must be ≤ ${issue.maximum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    case 'invalid_union':
      return 'does not match any allowed form';
    default:
      return 'is invalid';
  }
}

/** Longest part of an input echoed in an error (a 5 MB key must not make a 5 MB message). */
const ECHO_LIMIT = 40;
const clip = (text: string, limit = ECHO_LIMIT) => (text.length > limit ? `${text.slice(0, limit)}…` : text);

const joinPath = (parts: ReadonlyArray<PropertyKey>) =>
  parts
    .map((part) => clip(String(part)))
    .filter((part) => part !== '')
    .join('.');

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) value = (value as Record<PropertyKey, unknown> | null | undefined)?.[key];
  return value;
}

function toIssues(issues: readonly z.core.$ZodIssue[], input: unknown): ValidationIssue[] {
  return issues.flatMap((issue) =>
    // One issue per unknown key, so each typo is named where it is.
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          path: joinPath([...issue.path, key]),
          message: 'is not a known parameter',
        }))
      : [{ path: joinPath(issue.path), message: describeIssue(issue, input) }],
  );
}

/**
 * Checks request params; throws `ValidationError` naming each bad field.
 */
export function validateParams<Schema extends AnySchema>(
  schema: Schema,
  value: unknown,
  operation: string,
): z.output<Schema> {
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  const issues = toIssues(result.error.issues, value);
  const summary = issues.map((issue) => `${issue.path || '(params)'} ${issue.message}`).join('; ');
  // The operation carries the ids of the path: a long one is cut too.
  throw new ValidationError(`${clip(operation, 100)}: invalid params: ${summary}`, issues);
}

/** Where and why a value failed a compiled guard; the path is built only on failure. */
interface Failure {
  path: Array<string | number>;
  message: string;
}

/**
 * What a guard says of a value: `undefined`, valid, and zod's output would be the value itself;
 * a `Failure`, zod refuses it too; `null`, only zod can tell (its output may not be the value: a
 * default filled in, a transform, an object it rebuilds), so zod parses the whole value.
 */
type Guard = (value: unknown) => Failure | null | undefined;

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
const MISSING = 'required field is missing';
const expected = (what: string, value: unknown): Failure => ({
  path: [],
  message: value === undefined ? MISSING : `expected ${what}, got ${typeOf(value)}`,
});

const compiled = new WeakMap<AnySchema, Guard>();

/** The guard for a schema, compiled on first use and cached. */
function guardOf(schema: AnySchema): Guard {
  let guard = compiled.get(schema);
  if (guard === undefined) {
    // A recursive schema (a getter in its shape) meets itself while compiling: that use waits for this guard.
    compiled.set(schema, (value) => (guard as Guard)(value));
    guard = compile(schema);
    compiled.set(schema, guard);
  }
  return guard;
}

function zodFailure(issues: readonly z.core.$ZodIssue[], value: unknown): Failure {
  const [issue] = toIssues(issues, value);
  return { path: issue?.path ? issue.path.split('.') : [], message: issue?.message ?? 'is invalid' };
}

/** zod checks the node: its verdict stands, and so does its output when that is not the value itself. */
function zodFallback(schema: AnySchema): Guard {
  return (value) => {
    const result = z.safeParse(schema, value);
    if (!result.success) return zodFailure(result.error.issues, value);
    return Object.is(result.data, value) ? undefined : null;
  };
}

/** `true` when the node's type alone decides: no check (`z.int()` and `z.email()` are checks too), no coercion. */
function isPlain(schema: AnySchema): boolean {
  const def = schema._zod.def as { check?: string; checks?: unknown[]; coerce?: boolean };
  return !(def.check || def.checks?.length || def.coerce);
}

/**
 * `'string'`, `'number'` or `'boolean'` for a plain node of that type, checked inline by the object and
 * array loops: a closure call per field or element was most of the cost of a page (≈ 50 µs for 100
 * calls against ≈ 20 µs inline). `''` for any other node: its guard decides.
 */
function kindOf(schema: AnySchema): string {
  const type = schema._zod.def.type;
  return isPlain(schema) && ['string', 'number', 'boolean'].includes(type) ? type : '';
}

const passes = (kind: string, value: unknown) =>
  kind === 'string'
    ? typeof value === 'string'
    : kind === 'number'
      ? Number.isFinite(value)
      : kind === 'boolean' && typeof value === 'boolean';

function compileObject(def: z.core.$ZodObjectDef): Guard | undefined {
  const { catchall, shape } = def;
  // z.object drops unknown keys and z.strictObject refuses them. zod checks symbol keys too, and reads
  // a key that Object.prototype has (`toString`, `__proto__`) through it when the value lacks it.
  if (
    catchall?._zod.def.type !== 'unknown' ||
    !isPlain(catchall) ||
    Reflect.ownKeys(shape).some((key) => typeof key === 'symbol' || key in Object.prototype)
  )
    return undefined;
  const keys: string[] = [];
  const optional: boolean[] = [];
  const kinds: string[] = [];
  const guards: Guard[] = [];
  for (const [key, field] of Object.entries(shape)) {
    const { optin, optout, def: fieldDef } = field._zod;
    // zod skips an absent key only if both are 'optional' (a default fills it in, for one).
    if (optin !== undefined && (optin !== 'optional' || optout !== 'optional')) return undefined;
    keys.push(key);
    optional.push(optin !== undefined);
    // A present value goes to the inner schema of an optional.
    kinds.push(
      kindOf(
        fieldDef.type === 'optional' && isPlain(field)
          ? (fieldDef as z.core.$ZodOptionalDef).innerType
          : field,
      ),
    );
    guards.push(guardOf(field));
  }
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return expected('object', value);
    // zod copies the value key for key: into an equal object only from Object.prototype, and without
    // an own `__proto__` key (which JSON.parse makes and zod drops).
    if (Object.getPrototypeOf(value) !== Object.prototype || Object.hasOwn(value, '__proto__')) return null;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined && !(key in value)) {
        if (optional[i]) continue;
        return { path: [key], message: MISSING };
      }
      if (passes(kinds[i] as string, item)) continue;
      const failure = (guards[i] as Guard)(item);
      if (failure !== undefined) {
        failure?.path.unshift(key);
        return failure;
      }
    }
    return undefined;
  };
}

function compile(schema: AnySchema): Guard {
  const def = schema._zod.def as z.core.$ZodTypeDef & { innerType: AnySchema };
  const kind = kindOf(schema);
  if (kind !== '') return (v) => (passes(kind, v) ? undefined : expected(kind, v));
  // Any check is zod's (`z.int()` included: no response schema uses it).
  if (!isPlain(schema)) return zodFallback(schema);
  switch (def.type) {
    case 'unknown':
    case 'any':
      return () => undefined;
    case 'optional': {
      const guard = guardOf(def.innerType);
      // `undefined` is zod's to judge: z.exactOptional refuses it, and a default fills it in.
      const byZod = zodFallback(schema);
      return (v) => (v === undefined ? byZod : guard)(v);
    }
    case 'nullable': {
      const guard = guardOf(def.innerType);
      return (v) => (v === null ? undefined : guard(v));
    }
    case 'array': {
      const element = (def as unknown as z.core.$ZodArrayDef).element;
      const guard = guardOf(element);
      const elementKind = kindOf(element);
      return (v) => {
        if (!Array.isArray(v)) return expected('array', v);
        for (let i = 0; i < v.length; i++) {
          if (passes(elementKind, v[i])) continue;
          const failure = guard(v[i]);
          if (failure !== undefined) {
            failure?.path.unshift(i);
            return failure;
          }
        }
        return undefined;
      };
    }
    case 'object':
      return compileObject(def as unknown as z.core.$ZodObjectDef) ?? zodFallback(schema);
  }
  return zodFallback(schema);
}

/**
 * The response choke point: checks `value` against `schema` without copying it and returns it
 * typed, or throws `ResponseValidationError` naming the operation and the field
 * (`GET /v2/calls/recent: data.calls.3.duration: expected number, got string`). Same verdict and
 * output as zod's `safeParse`; zod's own output when it differs from the value (a default, a transform).
 *
 * @param prefix path of `value` inside the body (`data`)
 */
export function parseResponse<Schema extends AnySchema>(
  schema: Schema,
  value: unknown,
  operation: string,
  prefix = 'data',
): z.output<Schema> {
  let failure = guardOf(schema)(value);
  if (failure === undefined) return value as z.output<Schema>;
  if (failure === null) {
    const result = z.safeParse(schema, value);
    if (result.success) return result.data;
    failure = zodFailure(result.error.issues, value);
  }
  const path = joinPath([prefix, ...failure.path]);
  throw new ResponseValidationError(`${clip(operation, 100)}: ${path}: ${failure.message}`, [
    { path, message: failure.message },
  ]);
}

/** `true` when `parseResponse` accepts `value` (exported for the guard-vs-zod property tests). */
export function guardAccepts(schema: AnySchema, value: unknown): boolean {
  try {
    parseResponse(schema, value, '');
    return true;
  } catch {
    return false;
  }
}
