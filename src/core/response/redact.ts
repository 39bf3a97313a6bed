/** What a credential is replaced with in an error built from the service's answer. */
const REDACTED = '[redacted]';

/**
 * `value` with every occurrence of each secret replaced by `[redacted]`, in strings, arrays and
 * plain objects (keys included), deeply. An answer may echo the request (a proxy's error page, a debug
 * header): what the SDK keeps of it in an error must not carry the credential that was sent, neither
 * as sent nor encoded: percent- or form-encoded (the client secret travels in a form body), with
 * upper- or lower-case escapes, JSON-escaped (`\/`, `\"`), or in base64 or base64url. A secret of real
 * length (16 characters or more) is also found inside a longer base64 text, at any offset: an HTTP
 * Basic `id:secret`, a JWT payload. A composite credential can be listed as a secret of its own
 * (`` `${clientId}:${clientSecret}` ``), so that its base64 as a whole is replaced even when short.
 */
export function redact<T>(value: T, secrets: readonly string[]): T {
  const forms = [...new Set(secrets.filter((secret) => secret !== '').flatMap(encodings))];
  return forms.length === 0 ? value : (scrub(value, forms) as T);
}

function encodings(secret: string): string[] {
  const percent = encodeURIComponent(secret);
  const bytes = unescape(percent); // UTF-8, a character per byte
  // The secret alone (padding left out: `[redacted]=` hides nothing), then, for a real-length secret,
  // what only its bits make up at byte offset 3n, 3n+1 and 3n+2 of a longer text.
  const base64 = [btoa(bytes).split('=')[0] as string];
  if (secret.length >= 16)
    for (const k of [0, 1, 2])
      base64.push(btoa('\0'.repeat(k) + bytes).slice((4 * k + 2) / 3, (4 * (k + bytes.length)) / 3));
  return [
    secret,
    percent,
    new URLSearchParams({ s: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
    ...base64,
  ].flatMap((form) => [
    form,
    form.replace(/%[\dA-F]{2}/g, (hex) => hex.toLowerCase()),
    form.replaceAll('/', '\\/'),
    form.replaceAll('+', '-').replaceAll('/', '_'), // base64url
  ]);
}

function scrub(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return secrets.reduce(replaceWhole, value);
  if (Array.isArray(value)) return value.map((item) => scrub(item, secrets));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      out[scrub(key, secrets) as string] = scrub(item, secrets);
    return out;
  }
  return value;
}

const WORD = /[A-Za-z0-9_]/;

/**
 * `text` with each occurrence of `secret` replaced. A credential of real length (16 characters or
 * more) is replaced wherever it appears; a shorter one — a placeholder such as `parameter` or `b` —
 * only as a whole word, so `invalid_parameter` and `forbidden` stay matchable. A `%XX` escape
 * before it counts as a word boundary (`Bearer%20<token>`). Scanned by hand rather than with a
 * lookbehind RegExp, which older Safari cannot parse.
 */
function replaceWhole(text: string, secret: string): string {
  const anywhere = secret.length >= 16;
  let out = '';
  let from = 0;
  for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) {
    const end = at + secret.length;
    const escaped = text[at - 3] === '%' && /^[\dA-F]{2}$/i.test(text.slice(at - 2, at));
    const gluedBefore = !escaped && glued(text[at - 1], secret[0]);
    if (at < from || (!anywhere && (gluedBefore || glued(text[end], secret[secret.length - 1])))) continue;
    out += text.slice(from, at) + REDACTED;
    from = end;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** Whether `neighbour` continues the word that the secret's `edge` character starts or ends. */
function glued(neighbour: string | undefined, edge: string | undefined): boolean {
  return neighbour !== undefined && edge !== undefined && WORD.test(neighbour) && WORD.test(edge);
}
