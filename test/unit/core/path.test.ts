import { ValidationError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { path } from '../../../src/core/path.js';

describe('path``', () => {
  it('encodes ids so they cannot add a segment or a query', () => {
    expect(path`/v2/calls/${'a/b'}/transfer`).toBe('/v2/calls/a%2Fb/transfer');
    expect(path`/v1/users/${'x?y=1#z'}`).toBe('/v1/users/x%3Fy%3D1%23z');
    expect(path`/v1/users/${42}`).toBe('/v1/users/42');
  });

  it.each(['', '.', '..'])('rejects %j with a ValidationError', (id) => {
    expect(() => path`/v2/calls/${id}`).toThrow(ValidationError);
  });

  it.each([
    [{ id: 'call_1' }, 'object'],
    [undefined, 'undefined'],
    [null, 'null'],
    [['a'], 'object'],
  ])('rejects the non-string id %o from JavaScript, naming what it got', (id, got) => {
    expect(() => path`/v2/calls/${id as unknown as string}`).toThrow(
      `Invalid path parameter: expected an id string, got ${got}`,
    );
  });
});
