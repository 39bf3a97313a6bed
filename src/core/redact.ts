/** What a credential is replaced with in an error built from the service's answer. */
const REDACTED = '[redacted]';

/**
 * `value` with every occurrence of each secret replaced by `[redacted]`, in strings, arrays and
 * plain objects (keys included), deeply. An answer may echo the request (a proxy's error page, a debug
 * header): what the SDK keeps of it in an error must not carry the credential that was sent, neither
 * as sent nor percent- or form-encoded (the client secret travels in a form body).
 */
export function redact<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  return scrub(value, [...new Set(secrets.flatMap(encodings))]) as T;
}

function encodings(secret: string): string[] {
  return [secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)];
}

function scrub(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') {
    let text = value;
    for (const secret of secrets) if (text.includes(secret)) text = text.split(secret).join(REDACTED);
    return text;
  }
  if (Array.isArray(value)) return value.map((item) => scrub(item, secrets));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      out[scrub(key, secrets) as string] = scrub(item, secrets);
    return out;
  }
  return value;
}
