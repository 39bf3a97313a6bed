import type { IncomingHttpHeaders } from 'node:http';
import fc from 'fast-check';
import {
  type CallEventData,
  type CallIncomingEvent,
  type OpenEventData,
  signWebhook,
  TelephonyError,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventType,
  WebhookVerificationError,
} from 'telephony-sdk/webhooks';
import { afterAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { useNodeCrypto } from '../../../src/webhooks/crypto.js';
import { parseSignatureHeader } from '../../../src/webhooks/header.js';
import { body, header, hmac, incoming, NOW, SECRET } from './helpers.js';

async function reason(promise: Promise<unknown>): Promise<[string, number]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  expect(error).toBeInstanceOf(TelephonyError);
  const { reason, status } = error as WebhookVerificationError;
  return [reason, status];
}

const opts = { now: NOW };

afterAll(() => useNodeCrypto(true));

describe.each([
  ['node:crypto', true],
  ['Web Crypto', false],
])('verifyWebhook on %s', (_, node) => {
  const setPath = () => useNodeCrypto(node);

  it('returns the parsed, typed event for a valid signature', async () => {
    setPath();
    const event = await verifyWebhook(body(), header(body()), SECRET, opts);
    expect(event).toEqual(incoming);
    if (event.type === 'call.incoming') expect(event.data.call.from.number).toBe('+15551234567');
    else expect.unreachable();
  });

  it('accepts a Uint8Array of the exact bytes', async () => {
    setPath();
    const bytes = new TextEncoder().encode(body());
    expect((await verifyWebhook(bytes, header(bytes), SECRET, opts)).id).toBe('evt_1');
  });

  it("accepts request.arrayBuffer()'s ArrayBuffer, a BOM included (request.text() would drop it)", async () => {
    setPath();
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(body())]);
    const request = new Request('http://127.0.0.1/hooks', { method: 'POST', body: bytes });
    const event = await verifyWebhook(await request.arrayBuffer(), header(bytes), SECRET, opts);
    expect(event.id).toBe('evt_1');
  });

  it('signWebhook matches an independent HMAC and round-trips', async () => {
    setPath();
    const signed = await signWebhook(body(), SECRET, { timestamp: NOW });
    expect(signed).toBe(`t=${NOW},v1=${hmac(body())}`);
    expect((await verifyWebhook(body(), signed, SECRET, opts)).id).toBe('evt_1');
    expect(await signWebhook(new TextEncoder().encode('é'), SECRET, { timestamp: 1 })).toBe(
      `t=1,v1=${hmac('é')}`,
    );
  });

  it('refuses a signature over a re-serialized body and over one changed byte', async () => {
    setPath();
    const raw = JSON.stringify(incoming, null, 2);
    expect(await reason(verifyWebhook(body(), header(raw), SECRET, opts))).toEqual([
      'signature_mismatch',
      401,
    ]);
    const bytes = new TextEncoder().encode(body());
    const signed = header(bytes);
    bytes[10] = (bytes[10] ?? 0) ^ 1;
    expect(await reason(verifyWebhook(bytes, signed, SECRET, opts))).toEqual(['signature_mismatch', 401]);
  });

  it('accepts any of several v1 entries and any of several secrets (rotation)', async () => {
    setPath();
    const wrong = hmac(body(), 'old');
    const two = `t=${NOW},v1=${wrong},v1=${hmac(body())}`;
    expect((await verifyWebhook(body(), two, SECRET, opts)).id).toBe('evt_1');
    expect((await verifyWebhook(body(), header(body(), 'new'), ['old', 'new'], opts)).id).toBe('evt_1');
    expect(await reason(verifyWebhook(body(), header(body(), 'other'), ['old', 'new'], opts))).toEqual([
      'signature_mismatch',
      401,
    ]);
  });

  it('enforces the tolerance both ways, inclusive at the edge', async () => {
    setPath();
    for (const t of [NOW - 300, NOW + 300])
      expect((await verifyWebhook(body(), header(body(), SECRET, t), SECRET, opts)).id).toBe('evt_1');
    for (const t of [NOW - 301, NOW + 301, NOW + 86_400])
      expect(await reason(verifyWebhook(body(), header(body(), SECRET, t), SECRET, opts))).toEqual([
        'timestamp_out_of_tolerance',
        400,
      ]);
    const within = { now: NOW, tolerance: 10 };
    expect(await reason(verifyWebhook(body(), header(body(), SECRET, NOW - 11), SECRET, within))).toEqual([
      'timestamp_out_of_tolerance',
      400,
    ]);
  });
});

describe('Web Crypto keys', () => {
  it("imports each secret's key once and reuses it; the cache is bounded", async () => {
    useNodeCrypto(false);
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    const secret = 'whsec_import_once';
    for (let i = 0; i < 3; i++)
      expect((await verifyWebhook(body(), header(body(), secret), secret, opts)).id).toBe('evt_1');
    expect(await signWebhook(body(), secret, { timestamp: NOW })).toBe(header(body(), secret));
    expect(importKey).toHaveBeenCalledTimes(1);
    const many = Array.from({ length: 20 }, (_, i) => `whsec_rotating_${i}`);
    for (const s of many) await signWebhook('x', s);
    expect(importKey).toHaveBeenCalledTimes(21);
    await signWebhook('x', many[19] as string);
    expect(importKey).toHaveBeenCalledTimes(21);
    await signWebhook('x', many[0] as string);
    expect(importKey).toHaveBeenCalledTimes(22);
    useNodeCrypto(true);
  });
});

describe('Web Crypto key import failure', () => {
  it('is not cached: the next call imports the key again', async () => {
    useNodeCrypto(false);
    const secret = 'whsec_import_fails_once';
    const importKey = vi
      .spyOn(crypto.subtle, 'importKey')
      .mockRejectedValueOnce(new DOMException('transient', 'OperationError'));
    await expect(signWebhook(body(), secret, { timestamp: NOW })).rejects.toThrow('transient');
    expect(await signWebhook(body(), secret, { timestamp: NOW })).toBe(header(body(), secret));
    expect(importKey).toHaveBeenCalledTimes(2);
    importKey.mockRestore();
    useNodeCrypto(true);
  });
});

describe('signWebhook', () => {
  it('signs with the current time by default', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW * 1000 + 999 });
    try {
      expect(await signWebhook(body(), SECRET)).toBe(header(body()));
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a timestamp that is not whole unix seconds, Date.now() milliseconds first of all', async () => {
    for (const timestamp of [
      NOW * 1000,
      NOW * 1000 + 999,
      NOW + 0.5,
      -1,
      Number.NaN,
      Number.POSITIVE_INFINITY,
    ]) {
      const error = await signWebhook(body(), SECRET, { timestamp }).catch((e: unknown) => e);
      expect(error, String(timestamp)).toBeInstanceOf(TelephonyError);
      expect(error).not.toBeInstanceOf(WebhookVerificationError);
      expect((error as Error).message).toBe(
        'timestamp must be a whole number of seconds, e.g. Math.floor(Date.now() / 1000)',
      );
    }
    // The bounds are seconds still: 0, and 1e11 (the year 5138), which the header parser accepts.
    for (const timestamp of [0, 1e11]) {
      const signed = await signWebhook(body(), SECRET, { timestamp });
      expect(signed).toBe(header(body(), SECRET, timestamp));
      expect((await verifyWebhook(body(), signed, SECRET, { now: timestamp })).id).toBe('evt_1');
    }
  });
});

describe('types', () => {
  it("verifyWebhook takes node:http's req.headers['service-signature'] as it is", () => {
    expectTypeOf<IncomingHttpHeaders['service-signature']>().toExtend<Parameters<typeof verifyWebhook>[1]>();
    expectTypeOf(verifyWebhook).parameter(1).toEqualTypeOf<string | readonly string[] | null | undefined>();
  });

  it('events are a union discriminated by type: call events typed, the others open', () => {
    expectTypeOf(verifyWebhook).parameter(0).toEqualTypeOf<string | Uint8Array | ArrayBuffer>();
    expectTypeOf(verifyWebhook).returns.resolves.toEqualTypeOf<WebhookEvent>();
    expectTypeOf<WebhookEventOf<'call.incoming'>>().toEqualTypeOf<CallIncomingEvent>();
    expectTypeOf<CallIncomingEvent['data']['call']['from']['number']>().toEqualTypeOf<string>();
    expectTypeOf<CallIncomingEvent['data']['call']['status']>().toEqualTypeOf<'ringing'>();
    expectTypeOf<WebhookEventOf<'call.missed'>['data']>().toEqualTypeOf<CallEventData>();
    expectTypeOf<WebhookEventOf<'contact.updated'>['data']>().toEqualTypeOf<OpenEventData>();
    expectTypeOf<WebhookEvent['type']>().toEqualTypeOf<WebhookEventType>();
    expectTypeOf<'call.incoming' | 'call.ended' | 'contact.updated'>().toExtend<WebhookEventType>();
  });
});

describe('verifyWebhook outcomes', () => {
  it('missing header → 400 missing_header', async () => {
    for (const h of [undefined, null, ''])
      expect(await reason(verifyWebhook(body(), h, SECRET, opts))).toEqual(['missing_header', 400]);
  });

  it("a repeated header as an array (node:http's string[]) counts by its first value, as in WebhookReceiver", async () => {
    expect((await verifyWebhook(body(), [header(body()), 'x'], SECRET, opts)).id).toBe('evt_1');
    expect(await reason(verifyWebhook(body(), ['x', header(body())], SECRET, opts))).toEqual([
      'malformed_header',
      400,
    ]);
    expect(await reason(verifyWebhook(body(), [header(body(), 'whsec_other')], SECRET, opts))).toEqual([
      'signature_mismatch',
      401,
    ]);
    for (const h of [[], ['']])
      expect(await reason(verifyWebhook(body(), h, SECRET, opts))).toEqual(['missing_header', 400]);
  });

  it('malformed headers → 400 malformed_header', async () => {
    const sig = hmac(body());
    for (const h of [
      `v1=${sig}`,
      `t=${NOW}`,
      `t=abc,v1=${sig}`,
      `t=${NOW},v1=xyz`,
      `t=${NOW},v1=${sig.slice(2)}`,
      `t=${NOW},v1=${sig}00`,
      `t=${NOW},t=${NOW},v1=${sig}`,
      `t=-5,v1=${sig}`,
      `t=1e9,v1=${sig}`,
      'garbage',
      ',,,',
    ])
      expect(await reason(verifyWebhook(body(), h, SECRET, opts)), h).toEqual(['malformed_header', 400]);
  });

  it('uses the current time by default', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect((await verifyWebhook(body(), header(body(), SECRET, now), SECRET)).id).toBe('evt_1');
    expect(await reason(verifyWebhook(body(), header(body(), SECRET, now - 3600), SECRET))).toEqual([
      'timestamp_out_of_tolerance',
      400,
    ]);
  });

  it('a signed body that is not a JSON envelope → 400 malformed_payload', async () => {
    const envelope = (data: string) => `{"id":"evt_1","type":"call.ended","created_at":"x","data":${data}}`;
    for (const raw of [
      'not json',
      '[]',
      '{"type":"x"}',
      'null',
      envelope('null'),
      envelope('[]'),
      envelope('"x"'),
    ])
      expect(await reason(verifyWebhook(raw, header(raw), SECRET, opts))).toEqual(['malformed_payload', 400]);
  });

  it('returns unknown future types instead of rejecting them', async () => {
    const future = body({ id: 'evt_9', type: 'fax.received', created_at: 'x', data: { pages: 2 } });
    const event = await verifyWebhook(future, header(future), SECRET, opts);
    expect(event.type).toBe('fax.received');
    expect(event.data).toEqual({ pages: 2 });
  });

  it('a parsed object is refused with instructions for each framework', async () => {
    const error = await verifyWebhook(incoming as never, header(body()), SECRET, opts).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TelephonyError);
    expect(error).not.toBeInstanceOf(WebhookVerificationError);
    const { message } = error as Error;
    expect(message).toMatch(/raw request body/);
    expect(message).toMatch(/Buffer chunks/);
    expect(message).toMatch(/express\.raw\(\{ type: 'application\/json' \}\)/);
    expect(message).toMatch(/await request\.arrayBuffer\(\)/);
  });

  it('a zero, negative, NaN or infinite tolerance never switches the check off', async () => {
    for (const tolerance of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = await verifyWebhook(body(), header(body()), SECRET, { now: NOW, tolerance }).catch(
        (e) => e,
      );
      expect(error).toBeInstanceOf(TelephonyError);
      expect((error as Error).message).toMatch(/tolerance/);
    }
  });

  it('an empty secret or secret list is refused', async () => {
    for (const secret of ['', [], ['']]) {
      const error = await verifyWebhook(body(), header(body()), secret, opts).catch((e) => e);
      expect((error as Error).message).toMatch(/secret is required/);
    }
  });
});

describe('properties', () => {
  it('header parsing throws nothing but WebhookVerificationError', () => {
    fc.assert(
      fc.property(fc.string(), (h) => {
        try {
          parseSignatureHeader(h);
        } catch (error) {
          expect(error).toBeInstanceOf(WebhookVerificationError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('verifyWebhook throws nothing but WebhookVerificationError for string inputs, and never leaks the secret', async () => {
    const piece = fc.oneof(fc.string(), fc.constantFrom('t=', 'v1=', ',', `${NOW}`, hmac(body())));
    await fc.assert(
      fc.asyncProperty(
        fc.string(),
        fc.array(piece).map((p) => p.join('')),
        async (raw, h) => {
          try {
            await verifyWebhook(raw, h, SECRET, opts);
          } catch (error) {
            expect(error).toBeInstanceOf(WebhookVerificationError);
            expect(JSON.stringify({ ...(error as object), m: (error as Error).message })).not.toContain(
              'canary',
            );
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
