import { ValidationError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { paramNames, refuseNamed, withExtraBody, withExtraQuery } from '../../../src/core/request/extra.js';
import { ListRecentCallsParamsSchema } from '../../../src/resources/calls-schemas.js';

const OP = 'GET /v2/calls/recent';

function refusal(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

describe('paramNames', () => {
  it("names an object schema's keys, through a pipe; none for anything else", () => {
    expect(paramNames(ListRecentCallsParamsSchema)).toContain('limit');
    expect(
      paramNames(
        z.pipe(
          z.object({ a: z.string() }),
          z.transform((v) => v),
        ),
      ),
    ).toEqual(['a']);
    expect(paramNames(z.string())).toEqual([]);
  });
});

describe('refuseNamed', () => {
  it('refuses an extra key the typed params name, even when the call left it out', () => {
    const error = refusal(() =>
      refuseNamed({ limit: 'abc' }, paramNames(ListRecentCallsParamsSchema), 'extraQuery', OP),
    );
    expect(error.issues).toEqual([
      { path: 'extraQuery.limit', message: 'is a typed parameter: pass it with the params' },
    ]);
    expect(() => refuseNamed({ new_filter: 1 }, ['limit'], 'extraQuery', OP)).not.toThrow();
    expect(() => refuseNamed(undefined, ['limit'], 'extraQuery', OP)).not.toThrow();
  });
});

describe('withExtraQuery', () => {
  it('adds the extra parameters after the typed ones', () => {
    expect(withExtraQuery({ limit: 5 }, { region: 'eu', since: null }, OP)).toEqual({
      limit: 5,
      region: 'eu',
      since: null,
    });
    expect(withExtraQuery(undefined, { region: 'eu' }, OP)).toEqual({ region: 'eu' });
    const query = { limit: 5 };
    expect(withExtraQuery(query, undefined, OP)).toBe(query);
  });

  it('refuses a key the query has, a value a query cannot hold, and what is not an object', () => {
    expect(refusal(() => withExtraQuery({ limit: 5 }, { limit: 6 }, OP)).issues[0]?.path).toBe(
      'extraQuery.limit',
    );
    expect(refusal(() => withExtraQuery({}, { deep: { a: 1 } }, OP)).issues[0]?.path).toBe('extraQuery.deep');
    expect(refusal(() => withExtraQuery({}, ['a'], OP)).issues[0]?.path).toBe('extraQuery');
  });
});

describe('withExtraBody', () => {
  it('adds the extra fields to a JSON object body', () => {
    expect(withExtraBody({ to: '+1' }, { ring_timeout: 30, tags: ['a'] }, OP)).toEqual({
      to: '+1',
      ring_timeout: 30,
      tags: ['a'],
    });
    const body = { to: '+1' };
    expect(withExtraBody(body, undefined, OP)).toBe(body);
  });

  it('refuses a call without a JSON object body, a key the body has, and what is not an object', () => {
    expect(refusal(() => withExtraBody(undefined, { a: 1 }, OP)).issues).toEqual([
      { path: 'extraBody', message: 'this call has no JSON object body to add to' },
    ]);
    expect(refusal(() => withExtraBody({ to: '+1' }, { to: '+2' }, OP)).issues[0]?.path).toBe('extraBody.to');
    expect(refusal(() => withExtraBody({}, 'x', OP)).issues[0]?.path).toBe('extraBody');
  });
});
