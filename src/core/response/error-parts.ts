import * as errors from '../errors.js';
import { clip } from '../zod-issues.js';
import type { ErrorAnswer, MappingParts } from './error-from-response.js';

const PARTS: MappingParts = {
  APIError: errors.APIError,
  classByStatus: {
    400: errors.BadRequestError,
    401: errors.AuthenticationError,
    403: errors.PermissionDeniedError,
    404: errors.NotFoundError,
    429: errors.RateLimitError,
    500: errors.InternalServerError,
  },
  clip,
};

/**
 * The mapping of error answers (error-from-response.ts, as loaded by load.ts) with the error classes
 * and `clip` handed in: what the transport calls.
 */
export const withParts = (mapping: typeof import('./error-from-response.js')) => ({
  errorFromResponse: (answer: ErrorAnswer) => mapping.errorFromResponse(answer, PARTS),
});
