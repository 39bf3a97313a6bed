import { ResponseValidationError } from '../errors.js';

/**
 * The whole body of `reader` as UTF-8 text. The caller holds the reader, so it can cancel a body that
 * stalls without an abort signal: passing a signal to ky costs an `AbortSignal.any` on every request.
 */
export async function collectText(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
  }
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

/** A non-2xx answer's body: parsed JSON, else its text; `undefined` when empty. */
export function parseErrorBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Frees the connection of an answer we will not read. Not awaited: a cancel can stay pending. */
export function discard(response: Response): void {
  response.body?.cancel().catch(() => {});
}
