import { WebhookVerificationError } from './errors.js';

/** Request headers: a `Headers` object, or a plain object with names in any case. */
export type HeadersLike = Headers | Record<string, string | readonly string[] | undefined>;

/** A parsed `Service-Signature` header. */
export interface SignatureHeader {
  timestamp: number;
  /** Lower-case hex, each 64 characters. */
  signatures: string[];
}

// A declaration, not an arrow: a call to it then narrows like a throw.
function malformed(): never {
  throw new WebhookVerificationError('malformed_header');
}

// The form the service sends, matched in one pass; anything else (spaces, upper-case hex, several
// v1, other keys) takes the general parser below, with the same result.
const COMMON_FORM = /^t=(\d{1,12}),v1=([\da-f]{64})$/;

/**
 * Parses `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`; unknown keys are ignored for future schemes.
 * A repeated header given as an array (node:http's `string[]`) counts by its first value.
 */
export function parseSignatureHeader(header: string | readonly string[] | null | undefined): SignatureHeader {
  if (Array.isArray(header)) header = header[0];
  if (!header) throw new WebhookVerificationError('missing_header');
  // Not a string (an object, an array of arrays): refuse it rather than let it coerce.
  if (typeof header !== 'string') malformed();
  const common = COMMON_FORM.exec(header);
  if (common !== null) return { timestamp: Number(common[1]), signatures: [common[2] as string] };
  let timestamp = Number.NaN;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (eq < 1) malformed();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value) || !Number.isNaN(timestamp)) malformed();
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!/^[\da-f]{64}$/i.test(value)) malformed();
      signatures.push(value.toLowerCase());
    }
  }
  if (Number.isNaN(timestamp) || !signatures.length) malformed();
  return { timestamp, signatures };
}

/** The `Service-Signature` value as given: verifyWebhook takes an array's first value. */
export function signatureHeader(headers: HeadersLike): string | readonly string[] | null | undefined {
  if (typeof headers.get === 'function') return (headers as Headers).get('service-signature');
  const plain = headers as Record<string, string | readonly string[] | undefined>;
  // node:http lower-cases the names: one lookup; other objects may spell the name in any case.
  const direct = plain['service-signature'];
  if (direct !== undefined) return direct;
  for (const name in plain) if (name.toLowerCase() === 'service-signature') return plain[name];
  return undefined;
}

/**
 * node:http's cap on a request's headers (its default `maxHeaderSize`): 16 KiB of names and values.
 * `handle()` applies it too, for the runtimes and callers that pass headers no server has capped.
 */
export const MAX_HEADER_BYTES = 16 * 1024;

/** Whether the headers' names and values, counted in characters, pass {@link MAX_HEADER_BYTES}. */
export function headersTooLarge(headers: HeadersLike): boolean {
  let size = 0;
  if (typeof headers.forEach === 'function')
    (headers as Headers).forEach((value, name) => {
      size += name.length + value.length;
    });
  else {
    // for…in rather than Object.entries: no array per header on every delivery.
    const plain = headers as Record<string, string | readonly string[] | undefined>;
    for (const name in plain) {
      const value = plain[name];
      size += name.length + (typeof value === 'string' ? value.length : (value?.join('').length ?? 0));
    }
  }
  return size > MAX_HEADER_BYTES;
}
