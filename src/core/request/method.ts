import { invalid } from '../errors.js';
import type { HttpMethod } from '../types.js';
import { clip } from '../zod-issues.js';

export const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** `'post'` and `'Post'` are POST, so the retry policy recognises them; an unknown method is refused. */
export function methodOf(method: string): HttpMethod {
  const upper = typeof method === 'string' ? (method.toUpperCase() as HttpMethod) : undefined;
  if (upper !== undefined && METHODS.includes(upper)) return upper;
  throw invalid(
    `Unsupported method ${String(method).slice(0, 16)}`,
    'method',
    `must be one of ${METHODS.join(', ')}`,
  );
}

/** `"GET /v2/calls/recent"`: how messages and errors name an operation (a path past 200 characters is cut). */
export const operationName = (spec: { method: string; path: string }) =>
  `${spec.method} ${clip(spec.path, 200)}`;
