import { inspect, isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { ResponseValidationError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { parseResponse } from '../../../src/core/response/guard.js';
import { e164, emailAddress, intBetween, isoDate, openEnum } from '../../../src/resources/fields.js';

type Schema = z.core.$ZodType;

/** What `parseResponse` gives: zod's verdict and output, or the class of what it threw. */
function viaGuard(schema: Schema, value: unknown) {
  try {
    return { success: true, data: parseResponse(schema, value, 'GET /x') as unknown };
  } catch (error) {
    expect(error).toBeInstanceOf(ResponseValidationError);
    return { success: false };
  }
}

function agreesWithZod(schema: Schema, value: unknown): void {
  const expected = z.safeParse(schema, value);
  const actual = viaGuard(schema, value);
  expect(actual.success).toBe(expected.success);
  // Node's strict deep equality: prototypes, `undefined`-valued keys and -0 count (vitest's
  // toStrictEqual reads `.constructor`, which an own `constructor` key shadows).
  if (expected.success)
    expect(isDeepStrictEqual(actual.data, expected.data), inspect({ actual, expected: expected.data })).toBe(
      true,
    );
}

/** Keys that JavaScript objects treat specially, plus ordinary ones. */
const KEYS = ['a', 'b', 'c', 'toString', 'constructor', '__proto__'] as const;
const shapeKey = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom('a', 'b', 'c') },
  { weight: 1, arbitrary: fc.constantFrom(...KEYS) },
);

/** An object with exactly these own keys (`__proto__` included as an own key, as `JSON.parse` makes it). */
const own = (entries: Array<[string, unknown]>) => Object.fromEntries(entries);

const pad = (n: number) => String(n).padStart(2, '0');

/** Values of every awkward kind, independent of any schema. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    -0,
    0,
    1,
    1.5,
    2 ** 53,
    -7,
    '',
    ' x ',
    'a',
    'abc',
    '+14155550123',
    '2024-01-31',
    '2024-01-31T09:00:00+02:00',
    '2024-01-31T09:00:00+99:99',
    'user@example.com',
    true,
    false,
    [],
    {},
  ),
  fc.constant(new Date(0)),
  fc.constant(Object.create(null)),
  fc.constant(JSON.parse('{"__proto__": {"a": "x"}, "a": "y"}')),
  fc.jsonValue({ maxDepth: 2 }),
  fc.anything({ maxDepth: 2 }),
);

/** A schema and an arbitrary of values shaped like it (with a stray value now and then, at any depth). */
interface Case {
  schema: Schema;
  values: fc.Arbitrary<unknown>;
}

const withNoise = (values: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 6, arbitrary: values }, { weight: 1, arbitrary: anyValue });

const leaf = (schema: Schema, values: fc.Arbitrary<unknown>): Case => ({ schema, values: withNoise(values) });

const leaves: fc.Arbitrary<Case> = fc.oneof(
  fc.constant(null).map(() => leaf(z.string(), fc.string())),
  fc.constant(null).map(() => leaf(z.number(), fc.double())),
  fc.constant(null).map(() => leaf(z.int(), fc.oneof(fc.integer(), fc.double()))),
  fc.constant(null).map(() => leaf(z.boolean(), fc.boolean())),
  fc.constant(null).map(() => leaf(z.unknown(), anyValue)),
  fc.constant(null).map(() => leaf(z.any(), anyValue)),
  fc.constant(null).map(() => leaf(z.null(), fc.constant(null))),
  fc.constant(null).map(() => leaf(z.date(), fc.date())),
  fc
    .constantFrom<string | number | boolean | null>('x', 0, 1, true, null)
    .map((value) => leaf(z.literal(value), fc.constant(value))),
  fc.constant(null).map(() => leaf(z.enum(['a', 'b']), fc.constantFrom('a', 'b', 'c'))),
  fc
    .integer({ min: -5, max: 5 })
    .map((min) => leaf(z.number().check(z.minimum(min)), fc.integer({ min: -10, max: 10 }))),
  fc
    .integer({ min: -5, max: 5 })
    .map((min) =>
      leaf(z.int().check(z.minimum(min)), fc.oneof(fc.integer({ min: -10, max: 10 }), fc.double())),
    ),
  fc.constant(null).map(() => leaf(z.number().check(z.int()), fc.oneof(fc.integer(), fc.double()))),
  fc.constant(null).map(() => leaf(z.string().check(z.regex(/^[a-c]+$/)), fc.stringMatching(/^[a-d]*$/))),
  fc.integer({ min: 0, max: 3 }).map((min) => leaf(z.string().check(z.minLength(min)), fc.string())),
  fc.constant(null).map(() => leaf(z.string().check(z.trim()), fc.constantFrom(' a ', 'a', ''))),
  fc.constant(null).map(() => leaf(z.boolean().check(z.refine((value) => value)), fc.boolean())),
  fc.constant(null).map(() => leaf(z.coerce.number(), fc.oneof(fc.integer(), fc.constantFrom('1', 'x')))),
  fc.constant(null).map(() => leaf(z.coerce.string(), anyValue)),
  fc.constant(null).map(() => leaf(z.email(), fc.constantFrom('a@example.com', 'nope'))),
  fc.constant(null).map(() => leaf(openEnum(['on', 'off']), fc.constantFrom('on', 'off', 'new'))),
  fc.constant(null).map(() =>
    leaf(
      isoDate(),
      fc.oneof(
        fc.date(),
        fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
        fc
          .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 70 }))
          .map(([sign, hh, mm]) => `2024-01-31T09:00:00${sign}${pad(hh)}:${pad(mm)}`),
      ),
    ),
  ),
  fc.constant(null).map(() => leaf(e164(), fc.constantFrom('+14155550123', '14155550123', '+0123'))),
  fc.constant(null).map(() => leaf(emailAddress(), fc.constantFrom('a@b', 'a b@c', 'josé@example.com'))),
  fc.constant(null).map(() => leaf(intBetween(1, 10), fc.integer({ min: -2, max: 12 }))),
);

const cases: fc.Arbitrary<Case> = fc.letrec<{ node: Case }>((tie) => {
  const inner = tie('node');
  const objectOf = (make: (shape: Record<string, Schema>) => Schema) =>
    fc
      .uniqueArray(fc.tuple(shapeKey, inner), { selector: ([key]) => key, maxLength: 4 })
      .map((fields): Case => {
        const shape = own(fields.map(([key, field]) => [key, field.schema])) as Record<string, Schema>;
        const members = fields.map(([key, field]) =>
          fc.oneof(
            { weight: 4, arbitrary: field.values.map((value) => [[key, value]] as Array<[string, unknown]>) },
            { weight: 1, arbitrary: fc.constant([] as Array<[string, unknown]>) },
          ),
        );
        const extras = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS, 'z'), fc.string()), anyValue), {
          maxLength: 2,
        });
        return {
          schema: make(shape),
          values: withNoise(
            fc
              .tuple(fc.tuple(...members), extras)
              .map(([present, extra]) => own([...present.flat(), ...extra])),
          ),
        };
      });
  return {
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaves,
      inner.map(({ schema, values }) => ({
        schema: z.optional(schema),
        values: fc.oneof(fc.constant(undefined), values),
      })),
      inner.map(({ schema, values }) => ({
        schema: z.exactOptional(schema),
        values: fc.oneof(fc.constant(undefined), values),
      })),
      inner.map(({ schema, values }) => ({
        schema: z.nullable(schema),
        values: fc.oneof(fc.constant(null), values),
      })),
      inner.map(({ schema, values }) => ({
        schema: z.array(schema),
        values: withNoise(fc.array(values, { maxLength: 3 })),
      })),
      inner.map(({ schema, values }) => ({
        schema: z.array(schema).check(z.minLength(1)),
        values: withNoise(fc.array(values, { maxLength: 2 })),
      })),
      fc.tuple(inner, inner).map(([left, right]) => ({
        schema: z.union([left.schema, right.schema]),
        values: fc.oneof(left.values, right.values),
      })),
      inner.map(({ schema, values }) => ({
        schema: z._default(schema as z.ZodMiniType, 'fallback'),
        values: fc.oneof(fc.constant(undefined), values),
      })),
      inner.map(({ schema, values }) => ({
        schema: z.pipe(
          schema as z.ZodMiniType,
          z.transform((value: unknown) => [value]),
        ),
        values,
      })),
      inner.map(({ schema, values }) => ({
        schema: (schema as z.ZodMiniType).check(
          z.refine((value) => typeof value !== 'string' || value !== 'a'),
        ),
        values,
      })),
      inner.map(({ schema, values }) => ({
        schema: z.record(z.string(), schema),
        values: withNoise(fc.dictionary(fc.constantFrom(...KEYS), values, { maxKeys: 2 })),
      })),
      { weight: 4, arbitrary: objectOf((shape) => z.looseObject(shape)) },
      objectOf((shape) => z.object(shape)),
      objectOf((shape) => z.strictObject(shape)),
    ),
  };
}).node;

describe('parseResponse agrees with zod', () => {
  it('on random schemas and values: same verdict, same output', () => {
    fc.assert(
      fc.property(
        cases.chain((c) => fc.tuple(fc.constant(c.schema), c.values)),
        ([schema, value]) => agreesWithZod(schema, value),
      ),
      { numRuns: 3000 },
    );
  });

  // Each of these disagreed with zod before the guard deferred to it.
  it.each<[string, Schema, unknown]>([
    ['z.int() refuses a fraction', z.int(), 1.5],
    ['z.int() in an object', z.looseObject({ n: z.int() }), { n: 1.5 }],
    ['a check on z.int()', z.int().check(z.minimum(0)), -1],
    ['z.email() checks its format', z.email(), 'nope'],
    ['a check on an array', z.array(z.string()).check(z.minLength(1)), []],
    ['a check on a boolean', z.boolean().check(z.refine((value) => value)), false],
    ['a refinement on an object', z.looseObject({}).check(z.refine(() => false)), {}],
    [
      'z.exactOptional refuses undefined',
      z.looseObject({ a: z.exactOptional(z.string()) }),
      { a: undefined },
    ],
    ['a present undefined for z.unknown()', z.looseObject({ a: z.unknown() }), { a: undefined }],
    ['an absent z.unknown()', z.looseObject({ a: z.unknown() }), {}],
    ['a default fills an absent field', z.looseObject({ a: z._default(z.string(), 'x') }), {}],
    ['a default under optional', z.looseObject({ a: z.optional(z._default(z.string(), 'x')) }), {}],
    [
      'a transform',
      z.looseObject({
        a: z.pipe(
          z.string(),
          z.transform((s) => s.length),
        ),
      }),
      { a: 'abc' },
    ],
    ['an overwriting check', z.string().check(z.trim()), ' a '],
    ['z.coerce.string()', z.looseObject({ a: z.coerce.string() }), { a: 1 }],
    ['z.object strips unknown keys', z.object({ a: z.string() }), { a: 'x', b: 1 }],
    [
      'an own __proto__ key is not copied',
      z.looseObject({ a: z.string() }),
      JSON.parse('{"a":"x","__proto__":{"b":1}}'),
    ],
    ['a null-prototype object', z.looseObject({}), Object.create(null)],
    ['a shape key read through Object.prototype', z.looseObject({ toString: z.any() }), {}],
    ['a symbol key in the shape', z.looseObject({ [Symbol.for('k')]: z.string() }), {}],
    ['a symbol key in a record', z.record(z.string(), z.number()), { [Symbol.for('k')]: 1 }],
    [
      'an own __proto__ key in a record',
      z.record(z.string(), z.unknown()),
      JSON.parse('{"__proto__":1,"a":2}'),
    ],
    ['a record value', z.record(z.string(), z.number()), { a: 1, b: 'x' }],
  ])('%s', (_name, schema, value) => agreesWithZod(schema, value));

  it('keeps the fast path: a valid plain value is returned as is, no copy', () => {
    const schema = z.looseObject({ a: z.string(), b: z.optional(z.array(z.nullable(z.number()))) });
    const value = { a: 'x', b: [1, null], extra: { deep: true } };
    expect(parseResponse(schema, value, 'GET /x')).toBe(value);
    const absent = { a: 'x' };
    expect(parseResponse(schema, absent, 'GET /x')).toBe(absent);
  });

  it('compiles a recursive schema without overflowing the stack', () => {
    const Node = z.looseObject({
      name: z.string(),
      get children() {
        return z.optional(z.array(Node));
      },
    });
    const tree = { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] };
    expect(parseResponse(Node, tree, 'GET /x')).toBe(tree);
    expect(() => parseResponse(Node, { name: 'a', children: [{ name: 1 }] }, 'GET /x')).toThrow(
      'GET /x: data.children.0.name: expected string, got number',
    );
  });
});
