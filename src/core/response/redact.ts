/** What a credential is replaced with in an error built from the service's answer. */
const REDACTED = '[redacted]';
/** What stands for the part of an answer nested deeper than {@link MAX_DEPTH}. */
const TOO_DEEP = '[too deep]';
/** Levels of an answer kept: error bodies have a few, and a 10 000-deep one would overflow the stack. */
const MAX_DEPTH = 32;
/**
 * Named HTML references of the characters a credential may hold besides letters and digits: each
 * character, then its name (`/sol` for `&sol;`).
 */
const NAMED = `&amp <lt >gt "quot 'apos +plus /sol =equals .period _lowbar :colon`.split(' ');
const WORD = /\w/;
const encoder = new TextEncoder();

/** A copy of an answer (a body, its headers, a header value) safe to keep in an error. */
export type Redactor = (value: unknown) => unknown;

/**
 * Copies an answer with every occurrence of each secret replaced by `[redacted]`, in strings, arrays
 * and plain objects (keys included). An answer may echo the request (a proxy's error page, a debug
 * header): what the SDK keeps of it in an error must not carry the credential that was sent, neither as
 * sent nor encoded, each character in any of the forms an echo may use, mixed: percent-encoded (either
 * case; `+` for a space, as a form body), JSON-escaped (`\uXXXX`, `\/`, `\"`), or an HTML reference
 * (`&#x2F;`, `&#47;`, `&sol;`). Its base64 and base64url are found too and, for a secret of real length
 * (16 characters or more), inside a longer base64 text at any offset: an HTTP Basic `id:secret`, a JWT
 * payload. A composite credential can be listed as a secret of its own (`` `${id}:${secret}` ``), so that
 * its base64 as a whole is replaced even when short.
 *
 * The copy is plain data: objects are rebuilt key by key (a `__proto__` key stays a key), and what lies
 * deeper than 32 levels is replaced by `'[too deep]'`. A regular expression per secret holds all its
 * forms, so the text is scanned once per secret, in time linear in its length.
 *
 * @param compiled the expressions of earlier calls, by secret (a client's own: building one costs
 *   ≈ 0.1 ms, and a client meets the same secrets in every error); updated in place
 */
export function redactor(
  secrets: ReadonlyArray<string | undefined>,
  compiled: Map<string, RegExp> = new Map(),
): Redactor {
  const known = [...new Set(secrets)].filter((secret): secret is string => !!secret);
  // Longest first: a secret that starts another must not hide the longer one's match.
  known.sort((a, b) => b.length - a.length);
  // One expression per secret: V8 scans for a few alternatives far faster than for many (a 1 MiB
  // body: a few milliseconds for six secrets, against 15 ms in one expression).
  const patterns = known.map((secret) => {
    let pattern = compiled.get(secret);
    if (pattern === undefined) {
      pattern = new RegExp(forms(secret).join('|'), 'g');
      // Bounded: a client whose tokens rotate compiles each new one once.
      if (compiled.set(secret, pattern).size > 16) compiled.delete(compiled.keys().next().value as string);
    }
    return pattern;
  });
  const hide = (text: string) =>
    patterns.reduce(
      (out, pattern, i) => out.replace(pattern, (known[i] as string).length < 16 ? whole : () => REDACTED),
      text,
    );
  const copy = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return hide(value);
    if (typeof value !== 'object' || value === null) return value;
    if (depth > MAX_DEPTH) return TOO_DEEP;
    if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1));
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [hide(key), copy(item, depth + 1)]));
  };
  return (value) => copy(value, 0);
}

/**
 * A secret of real length (16 characters or more) is replaced wherever it is; a shorter one (a
 * placeholder such as `parameter` or `b`) only as a whole word, so `invalid_parameter` and
 * `forbidden` stay readable. A `%XX` escape before it counts as a word boundary (`Bearer%20<token>`).
 * Checked by hand rather than with a lookbehind, which older Safari cannot parse.
 */
function whole(match: string, at: number, text: string): string {
  const escaped = /%[\dA-F]{2}$/i.test(text.slice(Math.max(0, at - 3), at));
  const glued =
    (!escaped && word(text[at - 1]) && word(match[0])) ||
    (word(text[at + match.length]) && word(match[match.length - 1]));
  return glued ? match : REDACTED;
}

const word = (char: string | undefined) => char !== undefined && WORD.test(char);

/** The patterns of a secret: itself, then its base64 alone and (at real length) at each byte offset. */
function forms(secret: string): string[] {
  let bytes = '';
  for (const byte of encoder.encode(secret)) bytes += String.fromCharCode(byte);
  // Padding is left out: `[redacted]=` hides nothing.
  const base64 = [btoa(bytes).split('=')[0] as string];
  if (secret.length >= 16)
    for (const k of [0, 1, 2])
      base64.push(btoa('\0'.repeat(k) + bytes).slice((4 * k + 2) / 3, (4 * (k + bytes.length)) / 3));
  // Every character of the secret may be escaped; in base64 text, only `+`, `/`, `-` and `_`.
  return [
    secret.replace(/./gsu, anyForm),
    ...base64
      .flatMap((form) => [form, form.replaceAll('+', '-').replaceAll('/', '_')])
      .map((form) => form.replace(/[^\dA-Za-z]/g, anyForm)),
  ];
}

/** A character in any form an echo may give it: raw, percent-encoded, JSON-escaped, HTML reference. */
function anyForm(char: string): string {
  const code = char.codePointAt(0) as number;
  const hex = (n: number, digits: number) =>
    n
      .toString(16)
      .padStart(digits, '0')
      .replace(/[a-f]/g, (letter) => `[${letter}${letter.toUpperCase()}]`);
  const alternatives = [
    char.replace(/[$()*+.?[\\\]^{|}]/, '\\$&'),
    [...encoder.encode(char)].map((byte) => `%${hex(byte, 2)}`).join(''),
    // Each UTF-16 unit (two for a character past U+FFFF), as JSON escapes it.
    char.replace(/./gs, (unit) => `\\\\u${hex(unit.charCodeAt(0), 4)}`),
    `&#(?:[xX]0*${hex(code, 1)}|0*${code});`,
    ...NAMED.filter((named) => named[0] === char).map((named) => `&${named.slice(1)};`),
    char === ' ' && '\\+',
    '/"\\'.includes(char) && `\\\\\\${char}`,
  ];
  return `(?:${alternatives.filter(Boolean).join('|')})`;
}
