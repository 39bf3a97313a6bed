import { APIConnectionError, ResponseValidationError } from './errors.js';

/** The 2xx body as JSON; empty → undefined; unparseable → ResponseValidationError, never a SyntaxError. */
export async function readJson(response: Response, operation: string): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new APIConnectionError(`${operation}: the response body could not be read`, { cause: error });
  }
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // No `cause`: a SyntaxError quotes the body, and a short one may be a bare token.
    throw new ResponseValidationError(`${operation} → ${response.status}: the body is not valid JSON`, [
      { path: '', message: 'not JSON' },
    ]);
  }
}

/** The 2xx body as JSON, or `undefined` when it is empty or not JSON. */
export async function readLenient(response: Response, operation: string): Promise<unknown> {
  return readJson(response, operation).catch((error: unknown) => {
    if (error instanceof ResponseValidationError) return undefined;
    throw error;
  });
}

/** Frees the connection of an answer we will not read. Not awaited: a cancel can stay pending. */
export function discard(response: Response): void {
  response.body?.cancel().catch(() => {});
}

/** A non-2xx answer's body: parsed JSON, else its text; `undefined` when empty or unreadable. */
export async function readErrorBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
