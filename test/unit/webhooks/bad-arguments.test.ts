import { ValidationError as ClientValidationError } from 'telephony-sdk';
import { signWebhook, ValidationError, verifyWebhook } from 'telephony-sdk/webhooks';
import { describe, expect, it } from 'vitest';
import { body, header, NOW, SECRET } from './helpers.js';

// Bad arguments never escape as a raw TypeError: a ValidationError whose issue names the argument,
// the same class as the client's.
const raw = body();
const call = <T>(f: (...args: unknown[]) => T, ...args: unknown[]) => f(...args);

describe('bad arguments to verifyWebhook and signWebhook', () => {
  it('verifyWebhook: rejects with a ValidationError naming the argument', async () => {
    const cases: Array<[unknown[], string]> = [
      [[raw, header(raw), SECRET, null], 'options'],
      [[raw, header(raw), SECRET, 300], 'options'],
      [[{ id: 'evt_1' }, header(raw), SECRET], 'rawBody'],
      [[raw, header(raw), undefined], 'secret'],
      [[raw, header(raw), [SECRET, 42]], 'secret'],
      [[raw, header(raw), SECRET, { tolerance: 0 }], 'options.tolerance'],
      [[raw, header(raw), SECRET, { now: Number.NaN }], 'options.now'],
    ];
    for (const [args, path] of cases) {
      const rejection = call(verifyWebhook as (...a: unknown[]) => Promise<unknown>, ...args);
      await expect(rejection).rejects.toBeInstanceOf(ValidationError);
      await expect(rejection).rejects.toMatchObject({ name: 'ValidationError', issues: [{ path }] });
    }
    // The same class as the client entry's, so one catch serves both.
    expect(ValidationError).toBe(ClientValidationError);
    // Right arguments still verify.
    await expect(verifyWebhook(raw, header(raw), SECRET, { now: NOW })).resolves.toMatchObject({
      id: 'evt_1',
    });
  });

  it('signWebhook: rejects with a ValidationError naming the argument', async () => {
    const cases: Array<[unknown[], string]> = [
      [[raw, SECRET, null], 'options'],
      [[{ id: 'evt_1' }, SECRET], 'body'],
      [[raw, undefined], 'secret'],
      [[raw, ''], 'secret'],
      [[raw, SECRET, { timestamp: Date.now() }], 'options.timestamp'],
    ];
    for (const [args, path] of cases) {
      const rejection = call(signWebhook as (...a: unknown[]) => Promise<unknown>, ...args);
      await expect(rejection).rejects.toBeInstanceOf(ValidationError);
      await expect(rejection).rejects.toMatchObject({ issues: [{ path }] });
    }
    expect(await signWebhook(raw, SECRET, { timestamp: NOW })).toBe(header(raw));
  });
});
