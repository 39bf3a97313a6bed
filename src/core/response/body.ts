import { ResponseValidationError } from '../errors.js';

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
