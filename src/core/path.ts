import { ValidationError } from './errors.js';

/**
 * Tag for request paths: every interpolated id is percent-encoded, so `'a/b'` or `'?x'` cannot add a
 * segment or a query; an empty id, `'.'`, `'..'` or a non-string (from JavaScript) is refused before anything is sent.
 *
 * @example path`/v2/calls/${callId}/transfer`
 */
export function path(strings: TemplateStringsArray, ...ids: Array<string | number>): string {
  let out = strings[0] ?? '';
  for (let i = 0; i < ids.length; i++) {
    const raw: unknown = ids[i];
    // From JavaScript an object or `undefined` would otherwise become "[object Object]" or "undefined".
    if (typeof raw !== 'string' && typeof raw !== 'number') {
      throw new ValidationError(
        `Invalid path parameter: expected an id string, got ${raw === null ? 'null' : typeof raw}`,
        [{ path: '', message: 'an id must be a string' }],
      );
    }
    const id = String(raw);
    if (id === '' || id === '.' || id === '..') {
      throw new ValidationError(`Invalid path parameter ${JSON.stringify(id)}`, [
        { path: '', message: 'an id must not be empty, "." or ".."' },
      ]);
    }
    out += encodeURIComponent(id) + (strings[i + 1] ?? '');
  }
  return out;
}
