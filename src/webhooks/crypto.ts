import { toHex } from '../shared/bytes.js';

/** The slice of node:crypto the fast path uses. */
interface NodeCrypto {
  createHmac(
    algorithm: 'sha256',
    key: string,
  ): { update(data: string | Uint8Array): { digest(): Uint8Array } };
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}

// Reached at run time, never through a static import, so bundlers for browsers and edges do not follow it.
// Web Crypto's async HMAC is ~3.5× slower than node:crypto on 1 KB bodies.
const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;

let node = nodeCrypto;

/** Test seam: force the Web Crypto path (`false`) or restore the default. */
export function useNodeCrypto(enabled: boolean): void {
  node = enabled ? nodeCrypto : undefined;
}

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

/** Each secret's key is imported once; the cache is bounded so rotating secrets cannot grow it forever. */
function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= 16) keys.delete(keys.keys().next().value as string);
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    keys.set(secret, key);
  }
  return key;
}

const bytesOf = (body: string | Uint8Array): Uint8Array<ArrayBuffer> =>
  typeof body === 'string' ? encoder.encode(body) : new Uint8Array(body);

/** Lower-case hex HMAC-SHA256 of the body. */
export async function hmacHex(body: string | Uint8Array, secret: string): Promise<string> {
  if (node) return toHex(node.createHmac('sha256', secret).update(body).digest());
  return toHex(new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), bytesOf(body))));
}

/** Whether any signature is the HMAC of the body under any secret; constant-time per comparison. */
export async function matchesAny(
  body: string | Uint8Array,
  signatures: readonly Uint8Array<ArrayBuffer>[],
  secrets: readonly string[],
): Promise<boolean> {
  const fast = node;
  const bytes = fast ? body : bytesOf(body);
  for (const secret of secrets) {
    if (fast) {
      const expected = fast.createHmac('sha256', secret).update(bytes).digest();
      if (signatures.some((signature) => fast.timingSafeEqual(expected, signature))) return true;
    } else {
      const key = await hmacKey(secret);
      for (const signature of signatures)
        if (await crypto.subtle.verify('HMAC', key, signature, bytes as Uint8Array<ArrayBuffer>)) return true;
    }
  }
  return false;
}
