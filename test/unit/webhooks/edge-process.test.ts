import { afterEach, describe, expect, it, vi } from 'vitest';
import { hmac } from './helpers.js';

// Next.js's edge runtime gives a `process` whose unsupported members throw when read, and refuses a
// build whose modules read one at load: the webhooks code reads none at load, and falls back to Web
// Crypto when the read throws.
describe('a process whose getBuiltinModule and emitWarning throw when read (Next.js edge)', () => {
  const saved = globalThis.process;
  afterEach(() => {
    globalThis.process = saved;
    vi.resetModules();
  });

  function edgeProcess() {
    const reads: string[] = [];
    globalThis.process = new Proxy(saved, {
      get(target, name, receiver) {
        if (name === 'getBuiltinModule' || name === 'emitWarning') {
          reads.push(name);
          throw new Error(
            `A Node.js API is used (process.${name}) which is not supported in the Edge Runtime`,
          );
        }
        return Reflect.get(target, name, receiver);
      },
    });
    return reads;
  }

  it('loads the webhooks entry without reading either, then verifies over Web Crypto', async () => {
    const reads = edgeProcess();
    vi.resetModules();
    const webhooks = await import('telephony-sdk/webhooks');
    const { hmacHex } = await import('../../../src/webhooks/crypto.js');
    expect(reads).toEqual([]);
    expect(await hmacHex('{"id":"evt_1"}', 'whsec_x')).toBe(hmac('{"id":"evt_1"}', 'whsec_x'));
    expect(reads).toEqual(['getBuiltinModule']);
    // The receiver's warnings (here the dedup store's) do not throw either.
    const store = new webhooks.MemoryDedupStore({ maxSize: 1, now: () => 0 });
    store.add('a', 10);
    expect(() => store.add('b', 10)).not.toThrow();
    expect(reads).toEqual(['getBuiltinModule', 'emitWarning']);
  });
});
