import { ValidationError } from '../errors.js';
import { quote } from '../zod-issues.js';

/** One id, named by its parameter: `{ userId }`. */
type NamedId = Record<string, string>;

/** Longest part of a refused string echoed in an error (a 5 MB id must not make a 5 MB message). */
const ECHO_LIMIT = 40;

/**
 * Tag for the request path of a resource method: `path('users.delete')`/v1/users/${{ userId }}``.
 * Every id is percent-encoded, so `'a/b'` or `'?x'` cannot add a segment or a query. An id that is not
 * a non-empty string, is `'.'` or `'..'`, or has a lone surrogate throws a {@link ValidationError}
 * naming the method and the parameter (`users.delete: userId must be a non-empty string (got number NaN)`),
 * which the `async` method turns into a rejection before anything is sent.
 *
 * Numbers are refused too, even `42`: ids are strings (SPEC.md: `call_id`, `user_id` are strings, the
 * SDK's types say `string`), and accepting some numbers would invite `NaN`, `-0` (sent as `0`) or
 * `1.5` from an unchecked computation — a `DELETE` is irreversible. `String(n)` states the intent.
 */
export function path(method: string) {
  return (strings: TemplateStringsArray, ...ids: NamedId[]): string =>
    ids.reduce((out, id, i) => {
      const [name, value] = Object.entries(id ?? {})[0] ?? ['id', undefined];
      return out + encodeId(method, name, value) + strings[i + 1];
    }, strings[0] as string);
}

function encodeId(method: string, name: string, value: unknown): string {
  let problem = 'must be a non-empty string';
  if (typeof value === 'string' && value !== '') {
    problem = 'must not be "." or ".."';
    if (value !== '.' && value !== '..') {
      try {
        return encodeURIComponent(value);
      } catch {
        // URIError: a lone surrogate has no UTF-8 form, so no URL can carry it.
        problem = 'must not have a lone surrogate';
      }
    }
  }
  const issue = `${problem} (got ${describe(value)})`;
  throw new ValidationError(`${method}: ${name} ${issue}`, [{ path: name, message: issue }]);
}

/** What was received, short: `"abc"`, `number -0`, `null`, `array`, `object`. */
function describe(value: unknown): string {
  if (typeof value === 'string') return quote(value, ECHO_LIMIT);
  if (typeof value === 'number') return `number ${Object.is(value, -0) ? '-0' : String(value)}`;
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}
