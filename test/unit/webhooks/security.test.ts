/**
 * Security review of verification: the constant-time comparison, candidate signatures of every
 * shape, the cost of a header stuffed with `v1` entries, misuse that must not switch a check off,
 * and inputs that must fail closed with a WebhookVerificationError.
 */
import fc from 'fast-check';
import { TelephonyError, verifyWebhook, WebhookVerificationError } from 'telephony-sdk/webhooks';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { sameHex, useNodeCrypto } from '../../../src/webhooks/crypto.js';
import { body, hmac, NOW, SECRET } from './helpers.js';

afterAll(() => useNodeCrypto(true));

const opts = { now: NOW };

/** The outcome of a verification: the event id, or the failure's reason (misuse: its class name). */
async function outcome(run: Promise<{ id: string }>): Promise<string> {
  return run.then(
    (event) => `ok:${event.id}`,
    (error: unknown) =>
      error instanceof WebhookVerificationError ? error.reason : `misuse:${(error as Error).name}`,
  );
}

/** A hex string whose `charCodeAt` reads are counted. */
function counted(hex: string): { value: string; reads: () => number } {
  let reads = 0;
  const value = Object.assign(new String(hex), {
    charCodeAt(index: number) {
      reads++;
      return String.prototype.charCodeAt.call(hex, index);
    },
  });
  return { value: value as unknown as string, reads: () => reads };
}

describe('sameHex (the Node path comparator)', () => {
  const expected = hmac(body());

  it('reads every character of both digests wherever the first difference is: no early exit', () => {
    for (const position of [-1, 0, 1, 31, 62, 63]) {
      const candidate =
        position < 0
          ? expected
          : `${expected.slice(0, position)}${expected[position] === '0' ? '1' : '0'}${expected.slice(position + 1)}`;
      const a = counted(expected);
      const b = counted(candidate);
      expect(sameHex(a.value, b.value), `difference at ${position}`).toBe(position < 0);
      expect([a.reads(), b.reads()], `difference at ${position}`).toEqual([64, 64]);
    }
  });

  it('is exact equality of strings of any content and length', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(sameHex(a, b)).toBe(a === b);
        expect(sameHex(a, a)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

describe.each([
  ['node:crypto', true],
  ['Web Crypto', false],
])('candidate signatures on %s', (_, node) => {
  const sig = hmac(body());
  const at = (v1: string) => `t=${NOW},v1=${v1}`;

  it('one changed hex digit at any of the 64 positions → 401', async () => {
    useNodeCrypto(node);
    for (let i = 0; i < 64; i++) {
      const flipped = `${sig.slice(0, i)}${sig[i] === 'f' ? 'e' : 'f'}${sig.slice(i + 1)}`;
      expect(await outcome(verifyWebhook(body(), at(flipped), SECRET, opts)), `position ${i}`).toBe(
        'signature_mismatch',
      );
    }
  });

  it('upper-case hex is the same value and verifies; the header may list keys in any order, spaced', async () => {
    useNodeCrypto(node);
    for (const h of [
      at(sig.toUpperCase()),
      `v1=${sig},t=${NOW}`,
      ` t = ${NOW} , v1 = ${sig} `,
      `t=${NOW},v0=old,v1=${sig},x=y`,
    ])
      expect(await outcome(verifyWebhook(body(), h, SECRET, opts)), h).toBe('ok:evt_1');
  });

  it('a v1 that is not exactly 64 hex digits is a malformed header (400), never compared', async () => {
    useNodeCrypto(node);
    const notHex64 = fc
      .string({ maxLength: 80 })
      .filter((v) => !v.includes(',') && !/^[\da-f]{64}$/i.test(v.trim()));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(notHex64, fc.constantFrom(sig.slice(1), `${sig}0`, `${sig.slice(1)}g`)),
        async (v1) => {
          expect(await outcome(verifyWebhook(body(), at(v1), SECRET, opts))).toBe('malformed_header');
          expect(await outcome(verifyWebhook(body(), `${at(sig)},v1=${v1}`, SECRET, opts))).toBe(
            'malformed_header',
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('many v1 entries cost one HMAC per secret, not one per entry, and any of them may match', async () => {
    useNodeCrypto(node);
    const wrong = Array.from({ length: 40 }, (_, i) => hmac(`decoy ${i}`));
    const sign = vi.spyOn(crypto.subtle, 'sign');
    const verify = vi.spyOn(crypto.subtle, 'verify');
    const stuffed = `t=${NOW},${wrong.map((w) => `v1=${w}`).join(',')}`;
    expect(await outcome(verifyWebhook(body(), stuffed, [SECRET, 'older'], opts))).toBe('signature_mismatch');
    expect(sign.mock.calls.length + verify.mock.calls.length).toBeLessThanOrEqual(node ? 0 : 2);
    expect(await outcome(verifyWebhook(body(), `${stuffed},v1=${sig}`, ['older', SECRET], opts))).toBe(
      'ok:evt_1',
    );
  });
});

describe('both paths give identical outcomes', () => {
  it('for valid, altered, stale and mis-keyed deliveries', async () => {
    const sig = hmac(body());
    const candidate = fc.oneof(
      fc.constant(sig),
      fc.constant(sig.toUpperCase()),
      fc.stringMatching(/^[\da-f]{64}$/),
      fc.nat(63).map((i) => `${sig.slice(0, i)}${sig[i] === 'a' ? 'b' : 'a'}${sig.slice(i + 1)}`),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(candidate, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: -400, max: 400 }),
        fc.constantFrom<string | string[]>(SECRET, 'other', ['other', SECRET]),
        async (v1s, skew, secret) => {
          const h = `t=${NOW + skew},${v1s.map((v) => `v1=${v}`).join(',')}`;
          useNodeCrypto(true);
          const viaNode = await outcome(verifyWebhook(body(), h, secret, opts));
          useNodeCrypto(false);
          const viaWeb = await outcome(verifyWebhook(body(), h, secret, opts));
          expect(viaWeb).toBe(viaNode);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('fails closed', () => {
  it('a non-finite `now` is refused rather than switching the tolerance off', async () => {
    const h = `t=${NOW - 86_400 * 365},v1=${hmac(body())}`;
    for (const now of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      const error = await verifyWebhook(body(), h, SECRET, { now }).catch((e: unknown) => e);
      expect(error, String(now)).toBeInstanceOf(TelephonyError);
      expect(error).not.toBeInstanceOf(WebhookVerificationError);
      expect((error as Error).message).toMatch(/now/);
    }
  });

  it('a missing or non-string secret (an unset environment variable) is a clear TelephonyError', async () => {
    for (const secret of [undefined, null, 42, [undefined], [SECRET, 7], {}]) {
      const error = await verifyWebhook(body(), `t=${NOW},v1=${hmac(body())}`, secret as never, opts).catch(
        (e: unknown) => e,
      );
      expect(error, JSON.stringify(secret)).toBeInstanceOf(TelephonyError);
      expect((error as Error).message).toMatch(/secret is required/);
    }
  });

  it('a header of any type throws nothing but WebhookVerificationError; only a string or an array of one verifies', async () => {
    const valid = `t=${NOW},v1=${hmac(body())}`;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.anything(),
          fc.array(fc.anything(), { maxLength: 3 }),
          fc.constant([valid]),
          fc.constant([valid, valid]),
          fc.constant(['x', valid]),
          fc.constant([[valid]]),
          fc.constant({ toString: () => valid }),
          fc.constant({ 0: valid, length: 1 }),
        ),
        async (h) => {
          const result = await outcome(verifyWebhook(body(), h as never, SECRET, opts));
          // node:http's repeated header: the array counts by its first value, coerced never.
          const value: unknown = Array.isArray(h) ? h[0] : h;
          if (!value) expect(result).toBe('missing_header');
          else if (typeof value !== 'string') expect(result).toBe('malformed_header');
          else expect(result).toBe(await outcome(verifyWebhook(body(), value, SECRET, opts)));
          expect(result).not.toMatch(/^misuse/);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('no error of any path or input carries the secret', async () => {
    const errors: unknown[] = [];
    for (const node of [true, false]) {
      useNodeCrypto(node);
      for (const h of [undefined, 'x', `t=1,v1=${hmac(body())}`, `t=${NOW},v1=${hmac(body(), 'no')}`])
        errors.push(await verifyWebhook(body(), h, SECRET, opts).catch((e: unknown) => e));
      errors.push(await verifyWebhook('nope', `t=${NOW},v1=${hmac('nope')}`, SECRET, opts).catch((e) => e));
      errors.push(await verifyWebhook({} as never, 'x', SECRET, opts).catch((e: unknown) => e));
      errors.push(await verifyWebhook(body(), 'x', SECRET, { now: NOW, tolerance: -1 }).catch((e) => e));
    }
    expect(errors).toHaveLength(14);
    for (const error of errors) {
      expect(error).toBeInstanceOf(TelephonyError);
      const seen = `${(error as Error).message} ${(error as Error).stack} ${JSON.stringify(error)}`;
      expect(seen).not.toContain('canary');
    }
  });
});
