import { ValidationError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { path } from '../../../src/core/request/path.js';

/** The ValidationError `run` throws. */
function thrown(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a throw');
}

describe("path('method')``", () => {
  it('encodes ids so they cannot add a segment or a query', () => {
    const callId = 'a/b';
    const userId = 'x?y=1#z';
    expect(path('calls.transfer')`/v2/calls/${{ callId }}/transfer`).toBe('/v2/calls/a%2Fb/transfer');
    expect(path('users.get')`/v1/users/${{ userId }}`).toBe('/v1/users/x%3Fy%3D1%23z');
    expect(path('users.get')`/v1/users/${{ userId: '...' }}`).toBe('/v1/users/...');
    expect(path('users.get')`/v1/users/${{ userId: '%2e%2e' }}`).toBe('/v1/users/%252e%252e');
    expect(path('users.get')`/v1/users/${{ userId: 'ü 😀' }}`).toBe('/v1/users/%C3%BC%20%F0%9F%98%80');
  });

  it('names the method and the parameter, in the message and the issue', () => {
    const error = thrown(
      () => path('users.delete')`/v1/users/${{ userId: Number.NaN as unknown as string }}`,
    );
    expect(error.message).toBe('users.delete: userId must be a non-empty string (got number NaN)');
    expect(error.issues).toEqual([
      { path: 'userId', message: 'must be a non-empty string (got number NaN)' },
    ]);
  });

  it.each([
    ['', 'must be a non-empty string (got "")'],
    ['.', 'must not be "." or ".." (got ".")'],
    ['..', 'must not be "." or ".." (got "..")'],
    [Number.NaN, 'must be a non-empty string (got number NaN)'],
    [Number.POSITIVE_INFINITY, 'must be a non-empty string (got number Infinity)'],
    [-0, 'must be a non-empty string (got number -0)'],
    [1.5, 'must be a non-empty string (got number 1.5)'],
    [42, 'must be a non-empty string (got number 42)'],
    [10n, 'must be a non-empty string (got bigint)'],
    [true, 'must be a non-empty string (got boolean)'],
    [null, 'must be a non-empty string (got null)'],
    [undefined, 'must be a non-empty string (got undefined)'],
    [{ id: 'call_1' }, 'must be a non-empty string (got object)'],
    [['a'], 'must be a non-empty string (got array)'],
    ['a\uDC00b', 'must not have a lone surrogate (got "a\\udc00b")'],
  ])('refuses %o: %s', (callId, issue) => {
    const error = thrown(() => path('calls.end')`/v2/calls/${{ callId: callId as string }}`);
    expect(error.message).toBe(`calls.end: callId ${issue}`);
    expect(error.issues).toEqual([{ path: 'callId', message: issue }]);
  });

  it('caps the echoed value: a 5 MB id does not make a 5 MB message', () => {
    const userId = `${'x'.repeat(5_000_000)}\uD800`;
    const error = thrown(() => path('users.get')`/v1/users/${{ userId }}`);
    expect(error.message).toBe(
      `users.get: userId must not have a lone surrogate (got "${'x'.repeat(40)}"… 5000001 characters)`,
    );
  });

  it('checks every id, the first bad one named', () => {
    const error = thrown(() => path('x.y')`/v2/${{ a: 'ok' }}/${{ b: '' }}/${{ c: '..' }}`);
    expect(error.issues).toEqual([{ path: 'b', message: 'must be a non-empty string (got "")' }]);
  });
});
