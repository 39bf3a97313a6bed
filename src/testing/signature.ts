/**
 * `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of the raw body>` (SPEC.md, Signature).
 * Written here rather than imported from the SDK's webhooks entry on purpose: the integration
 * tests then check the SDK's verifier against an independent signer.
 */
export async function serviceSignature(body: string, secret: string, unixSeconds: number): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(body)));
  const hex = Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
  return `t=${unixSeconds},v1=${hex}`;
}
