import { ValidationError } from 'telephony-sdk';
import { describe, expect, it, vi } from 'vitest';
import { path } from '../../../src/core/request/path.js';
import { apiVersionOf } from '../../../src/core/request/request-path.js';

/** The ValidationError apiVersionOf throws for `input`. */
function refusal(input: unknown): ValidationError {
  try {
    apiVersionOf(input as string);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error(`expected ${JSON.stringify(input)} to be refused`);
}

const DOT = 'must not have a "." or ".." segment, in any encoding';
const EMPTY = 'must not contain "//" or end in "/"';
const VERSION = 'must start with /v2/ or /v1/';
const NOT_A_PATH = 'must start with /v2/ or /v1/';

describe('apiVersionOf', () => {
  it.each([
    ['/v2/calls/recent', 'v2'],
    ['/v2/calls', 'v2'],
    ['/v2/calls/call_1/transfer', 'v2'],
    ['/v2/oauth/token', 'v2'],
    ['/v1/users', 'v1'],
    ['/v1/users/usr_1', 'v1'],
    ['/v2/calls/call%20x', 'v2'],
    ['/v2/calls/%3Fx%3D1%23y', 'v2'],
    ['/v2/voicemail/vm.1/read', 'v2'],
    ['/v2/files/...', 'v2'],
    ['/v2/files/.x', 'v2'],
    ['/v2/files/x..', 'v2'],
    ['/v2/files/..x', 'v2'],
    ['/v2/contacts/~ann;rev=2', 'v2'],
    ["/v2/contacts/!$&'()*+,=:@", 'v2'],
    ['/v2/users/%C3%BC', 'v2'],
    ['/v2/users/100%25', 'v2'],
    ['/v2/users/100%25ff', 'v2'],
    ['/v2/calls/a%2Fb', 'v2'],
    ['/v2/calls/a%2F%2Fb', 'v2'],
    ['/v2/x%5C', 'v2'],
    ['/v2/x%252fy', 'v2'],
    ['/v2/calls%00.json', 'v2'],
    ['/v2/calls/%0d%0aX', 'v2'],
    ['/v2/calls/..%2Ex', 'v2'],
  ])('accepts %s as %s', (input, version) => {
    expect(apiVersionOf(input)).toBe(version);
  });

  it('accepts every path the path`` tag builds from a sane id', () => {
    for (const callId of ['call_1', 'a/b', 'x?y=1#z', 'ü 😀', '...', '.x', '%41', 'a;b', 'a\\b', 'a\tb'])
      expect(apiVersionOf(path('calls.get')`/v2/calls/${{ callId }}`)).toBe('v2');
  });

  it('refuses what path`` encodes from an id a server could still read as a dot-segment', () => {
    for (const callId of ['..;x', '.. ', '%2e%2e', '..\u0000', 'x/../..'])
      expect(() => apiVersionOf(path('calls.get')`/v2/calls/${{ callId }}`)).toThrow(ValidationError);
  });

  it.each([
    // Leaving the version through a dot-segment, raw or percent-encoded, once or twice.
    ['/v2/../v1/users', DOT],
    ['/v2/./calls', DOT],
    ['/v2/calls/..', DOT],
    ['/v2/calls/.', DOT],
    ['/v2/%2e%2e/admin', DOT],
    ['/v2/%2E%2E/admin', DOT],
    ['/v2/.%2e/admin', DOT],
    ['/v2/%2e./admin', DOT],
    ['/v2/%2e/admin', DOT],
    ['/v2/%252e%252e/admin', DOT],
    ['/v2/%25252e%25252e/admin', DOT],
    ['/v2/%252e%252e;%25ff/v1/users', DOT],
    ['/v2/..;/v1/users', DOT],
    ['/v2/..;jsessionid=x/v1/users', DOT],
    ['/v2/%2e%2e%3b/v1/users', DOT],
    ['/v2/%20../v1/users', DOT],
    ['/v2/%EF%BC%8E%EF%BC%8E/admin', DOT],
    ['/v2/%E2%80%A5/admin', DOT],
    // Behind a separator a server may split on once decoded, or a NUL it may stop at.
    ['/v2/calls%2f..%2f..%2fv1/users', DOT],
    ['/v2/calls%2F..', DOT],
    ['/v2/x%5c..%5cadmin', DOT],
    ['/v2/x%252f..', DOT],
    ['/v2/x%EF%BC%8F..', DOT],
    ['/v2/..%00x/v1/users', DOT],
    ['/v2/..%09/v1/users', DOT],
    // Raw characters a URL parser rewrites or drops, or that end the path.
    ['/v2\\..\\v1/users', 'must not contain "\\\\" (percent-encode it)'],
    ['/v2/.\t./v1/users', 'must not contain "\\t" (percent-encode it)'],
    ['/v2/calls\n', 'must not contain "\\n" (percent-encode it)'],
    ['/v2/calls\u0000', 'must not contain "\\u0000" (percent-encode it)'],
    ['/v2/calls/a b', 'must not contain " " (percent-encode it)'],
    ['/v2/calls/ü', 'must not contain "ü" (percent-encode it)'],
    ['/v2/calls/😀', 'must not contain "😀" (percent-encode it)'],
    ['/v2/calls/\uFF0E\uFF0E', 'must not contain "．" (percent-encode it)'],
    ['/v2/calls/<x>', 'must not contain "<" (percent-encode it)'],
    ['/v2/calls?limit=5', 'must not contain "?" (put the query in `query`)'],
    ['/v2/calls#x', 'must not contain "#" (put the query in `query`)'],
    // Malformed percent-encoding.
    ['/v2/calls/100%', 'must have two hex digits after each "%"'],
    ['/v2/calls/%zz', 'must have two hex digits after each "%"'],
    ['/v2/%c0%ae%c0%ae/admin', 'must be valid UTF-8 once percent-decoded'],
    ['/v2/%ff', 'must be valid UTF-8 once percent-decoded'],
    // Empty segments.
    ['/v2//x', EMPTY],
    ['/v2/calls/', EMPTY],
    ['/v2/calls//recent', EMPTY],
    // Version.
    ['/v2', 'must name something after /v2/'],
    ['/v2/', 'must name something after /v2/'],
    ['/v1', 'must name something after /v1/'],
    ['/v3/calls', VERSION],
    ['/V2/calls', VERSION],
    ['/%76%32/calls', VERSION],
    ['/v2;x/calls', VERSION],
    ['/v2.0/calls', VERSION],
    ['/', VERSION],
    ['//evil.example/v2/calls', VERSION],
    ['/api/v2/calls', VERSION],
    // Not a path.
    ['', NOT_A_PATH],
    ['v2/calls', NOT_A_PATH],
    ['https://api.test/v2/calls', NOT_A_PATH],
    ['../v2/calls', NOT_A_PATH],
    [' /v2/calls', NOT_A_PATH],
  ])('refuses %j: %s', (input, problem) => {
    const error = refusal(input);
    expect(error.issues).toEqual([{ path: 'path', message: problem }]);
    expect(error.message).toBe(`Invalid request path ${JSON.stringify(input)}: ${problem}`);
  });

  it.each([
    [undefined, 'undefined'],
    [null, 'null'],
    [42, 'number'],
    [new URL('https://api.test/v2/calls'), 'object'],
  ])('refuses the non-string %o from JavaScript', (input, type) => {
    const problem = `must be a string starting with /v2/ or /v1/ (got ${type})`;
    expect(refusal(input).message).toBe(`Invalid request path: ${problem}`);
  });

  it('echoes at most 80 characters of a long path', () => {
    const long = `/v2/${'x'.repeat(5_000_000)}/..`;
    const error = refusal(long);
    expect(error.message).toBe(
      `Invalid request path ${JSON.stringify(long.slice(0, 80))}… 5000007 characters: ${DOT}`,
    );
  });

  it('refuses a segment still percent-encoded after three decodings', () => {
    expect(refusal('/v2/%2525252e%2525252e/x').issues).toEqual([
      { path: 'path', message: 'must not be percent-encoded more than three times' },
    ]);
    expect(apiVersionOf('/v2/%252541')).toBe('v2');
  });

  it('keeps a short path that passed, never a long one (the set of passed paths stays small)', () => {
    // A segment with a "." is folded (NFKC) by each check: the count says which checks ran.
    const folds = vi.spyOn(String.prototype, 'normalize');
    try {
      const checks = (input: string) => {
        folds.mockClear();
        expect(apiVersionOf(input)).toBe('v2');
        return folds.mock.calls.length;
      };
      const short = '/v2/calls/kept.once';
      expect(checks(short)).toBeGreaterThan(0);
      expect(checks(short)).toBe(0);
      const long = `/v2/calls/${'id.'.repeat(200)}x`;
      expect(checks(long)).toBeGreaterThan(0);
      expect(checks(long)).toBeGreaterThan(0);
    } finally {
      folds.mockRestore();
    }
  });
});
