import { type ApiVersion, invalid } from '../errors.js';
import { quote } from '../zod-issues.js';

/**
 * Paths that passed, so that a path a client sends again and again (`/v2/calls/recent`) is checked
 * once; a string's verdict never changes. Emptied when full: paths with ids do not pile up.
 */
const passed = new Set<string>();
const PASSED_KEPT = 512;
/**
 * Longest path kept in the set: the paths a client repeats are short, and without it 512 paths with
 * long ids (an id taken from a request body) would hold megabytes for as long as the process runs.
 */
const KEPT_LENGTH = 256;
/** Longest part of a refused path echoed in the error message. */
const ECHO_LIMIT = 80;
/** Percent-decodings checked (a proxy and then the server may each decode); more are refused. */
const DECODINGS = 3;
const ENCODED = /%[0-9A-Fa-f]{2}/;
/** A character outside RFC 3986 path characters (unreserved, sub-delims, `:`, `@`, `/` and `%`). */
const NOT_PATH_CHAR = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/u;

/**
 * The API version a request path addresses — `'v2'` for `/v2/…`, `'v1'` for `/v1/…` — or a
 * {@link ValidationError} (issue path `'path'`) when the path could address something else once a URL
 * parser, a proxy or the server normalises it: `/v2/../v1/users` would carry the v2 token to a v1 path,
 * `/v2/%2e%2e/admin` out of the API. Strict on purpose, yet every path SPEC.md names passes, and so does
 * what `path``` makes of any id that does not read as a dot-segment once decoded (`'..;x'`, `'%2e%2e'`).
 *
 * 1. A string starting with `/v2/` or `/v1/` (literally, lower case) and naming something after it:
 *    `/v2` and `/v2/` are refused, and so is anything not starting with `/` (an absolute URL included).
 * 2. Only RFC 3986 path characters: letters, digits, `-._~!$&'()*+,;=:@/` and `%` followed by two hex
 *    digits. So no whitespace or control character (a URL parser drops tabs and newlines: `.\t.` is
 *    `..`), no backslash (read as `/`), no `?` or `#` (the query goes in `query`), no raw non-ASCII
 *    (percent-encode it).
 * 3. No empty segment: `//` (which servers collapse, and which starts a host at the front) or a
 *    trailing `/`.
 * 4. No dot-segment, in any form a server may read one: each segment as sent and after each of up to
 *    three percent-decodings (the first must be valid UTF-8: `%c0%ae`, an overlong `.`, is refused; a
 *    segment still encoded after three is refused), after Unicode NFKC (`%EF%BC%8E` is `．`, which some
 *    servers fold to `.`), split at a decoded `/` or `\` (`%2F`, `%5C`), cut at a `;` (Tomcat reads
 *    `..;x` as `..`) or a NUL (`..%00x` ends at `..` in C servers) and trimmed, is neither `.` nor `..`.
 *    Refused: `%2e`, `.%2E`, `%252e%252e`, `..;`, `%20..`, `x%2F..%2F..`. Accepted: `...` (a name, as RFC 3986 says) and `a%2Fb`, the one segment
 *    `path``` makes of the id `'a/b'`.
 */
export function apiVersionOf(path: string): ApiVersion {
  if (!passed.has(path)) {
    const problem = problemOf(path);
    // A path that is not a string is named by its type, in the problem.
    if (problem !== undefined)
      throw invalid(
        `Invalid request path${typeof path === 'string' ? ` ${quote(path, ECHO_LIMIT)}` : ''}`,
        'path',
        problem,
      );
    if (path.length <= KEPT_LENGTH) {
      if (passed.size >= PASSED_KEPT) passed.clear();
      passed.add(path);
    }
  }
  return path.startsWith('/v2/') ? 'v2' : 'v1';
}

function problemOf(path: unknown): string | undefined {
  if (typeof path !== 'string')
    return `must be a string starting with /v2/ or /v1/ (got ${path === null ? 'null' : typeof path})`;
  if (!path.startsWith('/')) return 'must start with /v2/ or /v1/';
  const bad = NOT_PATH_CHAR.exec(path);
  if (bad !== null) return badChar(bad[0]);
  if (/%(?![0-9A-Fa-f]{2})/.test(path)) return 'must have two hex digits after each "%"';
  const segments = path.split('/').slice(1);
  const [version, first] = segments;
  if (version !== 'v2' && version !== 'v1') return 'must start with /v2/ or /v1/';
  if (first === undefined || (first === '' && segments.length === 2))
    return `must name something after /${version}/`;
  if (segments.includes('')) return 'must not contain "//" or end in "/"';
  for (const segment of segments) {
    const problem = segmentProblem(segment);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function badChar(char: string): string {
  if (char === '?' || char === '#') return `must not contain "${char}" (put the query in \`query\`)`;
  return `must not contain ${JSON.stringify(char)} (percent-encode it)`;
}

function segmentProblem(segment: string): string | undefined {
  // Without `.` or `%` (most segments) no form below can be a dot-segment: the rest, which NFKC-folds
  // and splits, costs a few µs per call. The characters are ASCII already (NOT_PATH_CHAR).
  if (!/[.%]/.test(segment)) return undefined;
  let form = segment;
  for (let decoded = 0; ; decoded++) {
    // A server that decodes `%2F` or `%5C` splits there: each piece must then be no dot-segment either.
    for (const piece of form.normalize('NFKC').split(/[/\\]/)) {
      const name = piece.split(/[;\0]/)[0]?.trim();
      if (name === '.' || name === '..') return 'must not have a "." or ".." segment, in any encoding';
    }
    if (!ENCODED.test(form)) return undefined;
    if (decoded === DECODINGS) return 'must not be percent-encoded more than three times';
    try {
      form = decode(form, decoded === 0);
    } catch {
      return 'must be valid UTF-8 once percent-decoded';
    }
  }
}

/**
 * Decodes each run of percent-encoded bytes. The first decoding must be UTF-8 (it throws); a second
 * decoder may be lenient: bytes that are not UTF-8 are kept one character each, not fatal.
 */
function decode(text: string, strict: boolean): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch (error) {
      if (strict) throw error;
      return run.replace(/%(..)/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    }
  });
}
