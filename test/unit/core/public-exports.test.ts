import * as sdk from 'telephony-sdk';
import { describe, expect, expectTypeOf, it } from 'vitest';

describe('telephony-sdk public surface', () => {
  it('does not export errorFromResponse (an internal factory)', () => {
    expect(Object.keys(sdk)).not.toContain('errorFromResponse');
    expectTypeOf(sdk).not.toHaveProperty('errorFromResponse');
  });

  it('still exports every error class', () => {
    for (const name of [
      'TelephonyError',
      'APIError',
      'BadRequestError',
      'AuthenticationError',
      'PermissionDeniedError',
      'NotFoundError',
      'RateLimitError',
      'InternalServerError',
      'APIConnectionError',
      'APITimeoutError',
      'APIUserAbortError',
      'ValidationError',
      'ResponseValidationError',
    ]) {
      expect(sdk, name).toHaveProperty(name, expect.any(Function));
    }
    expectTypeOf<sdk.APIErrorInit['apiVersion']>().toEqualTypeOf<sdk.ApiVersion>();
    expectTypeOf<sdk.ValidationIssue>().toEqualTypeOf<{ path: string; message: string }>();
  });
});
