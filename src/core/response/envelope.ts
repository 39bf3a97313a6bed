import { ResponseValidationError } from '../errors.js';

/** A success body: `{ status: 'success', data, pagination? }`. */
export interface SuccessEnvelope {
  data: Record<string, unknown>;
  /** The whole body, where v1 lists keep `pagination` beside `data`. */
  body: Record<string, unknown>;
}

/** A plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Unwraps `data` from a 2xx body, or throws `ResponseValidationError` naming the operation. */
export function unwrapSuccess(body: unknown, operation: string): SuccessEnvelope {
  if (!isRecord(body)) {
    throw new ResponseValidationError(`${operation}: expected a JSON object body`, [
      { path: '', message: 'expected a JSON object' },
    ]);
  }
  const data = body.data;
  if (!isRecord(data)) {
    const message = data === undefined ? 'required field is missing' : 'expected object';
    throw new ResponseValidationError(`${operation}: data: ${message}`, [{ path: 'data', message }]);
  }
  return { data, body };
}

/** A 2xx body as JSON; empty → undefined; unparseable → ResponseValidationError, never a SyntaxError. */
export function parseJson(text: string, status: number, operation: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // No `cause`: a SyntaxError quotes the body, and a short one may be a bare token.
    throw new ResponseValidationError(`${operation} → ${status}: the body is not valid JSON`, [
      { path: '', message: 'not JSON' },
    ]);
  }
}

/** A 2xx body as JSON, or `undefined` when it is empty or not JSON. */
export function parseLenient(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
