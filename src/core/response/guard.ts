/**
 * The one place responses are checked.
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
import { ResponseValidationError } from '../errors.js';
import { clip, joinPath, toIssues } from '../zod-issues.js';

type AnySchema = z.core.$ZodType;

/**
 * What a guard says of a value: `true`, valid, and zod's output would be the value itself; `false`,
 * zod parses the whole value: it refuses it (and words why), or its output is not the value (a
 * default filled in, a transform, an object it rebuilds).
 */
type Guard = (value: unknown) => boolean;

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

/** zod checks the node: the value passes only when zod accepts it and its output is the value itself. */
const zodFallback =
  (schema: AnySchema): Guard =>
  (value) => {
    const result = z.safeParse(schema, value);
    return result.success && Object.is(result.data, value);
  };

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
  // zod copies the value key for key: into an equal object only from Object.prototype, and without
  // an own `__proto__` key (which JSON.parse makes and zod drops).
  return (value) => {
    if (
      typeof value !== 'object' ||
      value === null ||
      Object.getPrototypeOf(value) !== Object.prototype ||
      Object.hasOwn(value, '__proto__')
    )
      return false;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined && !(key in value)) {
        if (optional[i]) continue;
        return false;
      }
      if (!passes(kinds[i] as string, item) && !(guards[i] as Guard)(item)) return false;
    }
    return true;
  };
}

function compile(schema: AnySchema): Guard {
  const def = schema._zod.def as z.core.$ZodTypeDef & { innerType: AnySchema };
  const kind = kindOf(schema);
  if (kind !== '') return (v) => passes(kind, v);
  // Any check is zod's (`z.int()` included: no response schema uses it).
  if (!isPlain(schema)) return zodFallback(schema);
  switch (def.type) {
    case 'unknown':
    case 'any':
      return () => true;
    case 'optional': {
      const guard = guardOf(def.innerType);
      // `undefined` is zod's to judge: z.exactOptional refuses it, and a default fills it in.
      return (v) => v !== undefined && guard(v);
    }
    case 'nullable': {
      const guard = guardOf(def.innerType);
      return (v) => v === null || guard(v);
    }
    case 'array': {
      const element = (def as unknown as z.core.$ZodArrayDef).element;
      const guard = guardOf(element);
      const elementKind = kindOf(element);
      return (v) => {
        if (!Array.isArray(v)) return false;
        for (const item of v) if (!passes(elementKind, item) && !guard(item)) return false;
        return true;
      };
    }
    case 'object':
      return compileObject(def as unknown as z.core.$ZodObjectDef) ?? zodFallback(schema);
  }
  return zodFallback(schema);
}

const MISSING = 'required field is missing';
const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * The response choke point: checks `value` against `schema` without copying it and returns it
 * typed, or throws `ResponseValidationError` naming the operation and the field
 * (`GET /v2/calls/recent: data.calls.3.duration: expected number, got string`). Same verdict and
 * output as zod's `safeParse`; zod's own output when it differs from the value (a default, a transform).
 * A value the guard does not pass is zod's: its first issue names the field.
 *
 * @param prefix path of `value` inside the body (`data`)
 */
export function parseResponse<Schema extends AnySchema>(
  schema: Schema,
  value: unknown,
  operation: string,
  prefix = 'data',
): z.output<Schema> {
  if (guardOf(schema)(value)) return value as z.output<Schema>;
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  const [issue] = result.error.issues as z.core.$ZodIssue[];
  const { path: at = [], code } = issue ?? {};
  const found = at.reduce<unknown>(
    (parent, key) => (parent as Record<PropertyKey, unknown> | null | undefined)?.[key],
    value,
  );
  const message =
    found === undefined
      ? MISSING
      : code === 'invalid_type'
        ? `expected ${(issue as z.core.$ZodIssueInvalidType).expected}, got ${typeOf(found)}`
        : (toIssues([issue as z.core.$ZodIssue], value)[0]?.message ?? 'is invalid');
  const path = joinPath([prefix, ...at]);
  throw new ResponseValidationError(`${clip(operation, 100)}: ${path}: ${message}`, [{ path, message }]);
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
