import type { V1DeprecatedWarning } from '../events.js';

/** SPEC.md, Versioning: v1's deprecation date. */
const V1_DEPRECATED_ON = '2023-12-31';

/**
 * The `v1_deprecated` warning, which a client says at its first v1 call (http.ts). Apart from the
 * reading of an answer's deprecation headers (deprecation.ts), which loads only when an answer
 * carries them.
 */
export const v1Deprecated = (requestId: string): V1DeprecatedWarning => ({
  code: 'v1_deprecated',
  message: `API v1 (users, legacyCalls, /v1/ paths) is deprecated since 31 December 2023 (the service's versioning policy): its behaviour after that date is not specified, and it may change or stop without notice`,
  deprecatedOn: V1_DEPRECATED_ON,
  requestId,
});
