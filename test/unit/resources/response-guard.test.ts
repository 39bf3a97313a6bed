import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { guardAccepts, parseResponse } from '../../../src/core/response/guard.js';
import { CallDetailSchema, CallSchema, EndedCallSchema } from '../../../src/resources/calls-schemas.js';
import { CallStatsSchema } from '../../../src/resources/stats.js';
import { DeletedUserSchema, UserSchema } from '../../../src/resources/users.js';
import { detailCall, listCall, statsBody } from '../../fixtures/calls.js';
import { fullUser } from '../../fixtures/users.js';

const samples: Array<[string, z.core.$ZodType, Record<string, unknown>]> = [
  ['Call', CallSchema, listCall('call_1')],
  ['CallDetail', CallDetailSchema, detailCall('call_1')],
  ['EndedCall', EndedCallSchema, { id: 'c', status: 'ended', ended_at: '2024-01-01T00:00:00Z' }],
  ['CallStats', CallStatsSchema, statsBody.data.stats],
  ['User', UserSchema, fullUser('u1')],
  ['DeletedUser', DeletedUserSchema, { deleted: true, id: 'u1' }],
];

/** Any JSON-ish value, including the awkward ones (NaN, Infinity, -0, nested arrays). */
const anyValue = fc.oneof(
  fc.constantFrom(undefined, null, Number.NaN, Number.POSITIVE_INFINITY, -0, 1.5, '', 'x', true, [], {}),
  fc.jsonValue(),
);

/** The sample with some fields replaced, removed or added, recursively one level into objects. */
function mutated(sample: Record<string, unknown>) {
  const keys = Object.keys(sample);
  return fc
    .array(
      fc.record({
        key: fc.oneof(fc.constantFrom(...keys), fc.string()),
        action: fc.constantFrom('replace', 'delete', 'nested'),
        value: anyValue,
      }),
      { maxLength: 4 },
    )
    .map((edits) => {
      const copy: Record<string, unknown> = structuredClone(sample);
      for (const { key, action, value } of edits) {
        const current = copy[key];
        if (action === 'delete') delete copy[key];
        else if (action === 'nested' && current !== null && typeof current === 'object') {
          const inner = Array.isArray(current) ? [...current] : { ...current };
          const innerKeys = Object.keys(inner);
          const target = innerKeys[0];
          if (target !== undefined) (inner as Record<string, unknown>)[target] = value;
          copy[key] = inner;
        } else copy[key] = value;
      }
      return copy;
    });
}

describe('compiled response guard', () => {
  it.each(samples)('%s: accepts exactly what zod accepts', (_name, schema, sample) => {
    fc.assert(
      fc.property(fc.oneof(mutated(sample), anyValue), (value) => {
        expect(guardAccepts(schema, value)).toBe(z.safeParse(schema, value).success);
      }),
      { numRuns: 400 },
    );
  });

  it('returns the very input when valid (no copy), extra fields included', () => {
    const call = { ...listCall('call_1'), extra: { deep: [1] } };
    expect(parseResponse(CallSchema, call, 'GET /x')).toBe(call);
  });

  it('falls back to zod for nodes it does not compile, with the same verdict and a path', () => {
    const schema = z.looseObject({
      code: z.string().check(z.regex(/^[A-Z]+$/)),
      at: z.union([z.string(), z.number()]),
    });
    expect(guardAccepts(schema, { code: 'AB', at: 1 })).toBe(true);
    expect(() => parseResponse(schema, { code: 'ab', at: 1 }, 'GET /x')).toThrow('GET /x: data.code:');
    expect(guardAccepts(schema, { code: 'AB', at: true })).toBe(false);
  });
});
