import { WebhookReceiver } from 'telephony-sdk/webhooks';
import { describe, expect, it, vi } from 'vitest';
import { delivery, NOW, SECRET } from './helpers.js';

// Issue 18, item 12: the receiver reads its handlers through eventemitter3's public API only (no
// private `_events`), keeping each one's context and `once` semantics: a `once` handler is taken by
// the event that runs it, put back if that event fails, and never put back once the user removed it.

const receiver = () => new WebhookReceiver({ secret: SECRET, now: NOW });

describe('issue 18: once() through eventemitter3’s public API', () => {
  it('a once() listener removed (off) while its event runs does not come back when the event fails', async () => {
    const r = receiver();
    let runs = 0;
    let fail: (error: Error) => void = () => {};
    const listener = () => {
      runs++;
      return new Promise<void>((_, reject) => {
        fail = reject;
      });
    };
    r.once('call.incoming', listener);
    const answer = r.handle(delivery());
    await vi.waitFor(() => expect(runs).toBe(1));
    r.off('call.incoming', listener);
    fail(new Error('db down'));
    expect((await answer).status).toBe(500);
    expect(r.listenerCount('call.incoming')).toBe(0);
    expect(r.listeners('call.incoming')).toEqual([]);
    expect((await r.handle(delivery())).status).toBe(200);
    expect(runs).toBe(1);
  });

  it('nor one removed with removeAllListeners', async () => {
    const r = receiver();
    let runs = 0;
    let fail: (error: Error) => void = () => {};
    r.once('*', () => {
      if (++runs > 1) return;
      return new Promise<void>((_, reject) => {
        fail = reject;
      });
    });
    const answer = r.handle(delivery());
    await vi.waitFor(() => expect(runs).toBe(1));
    r.removeAllListeners();
    fail(new Error('db down'));
    expect((await answer).status).toBe(500);
    expect((await r.handle(delivery())).status).toBe(200);
    expect(runs).toBe(1);
  });

  it('one function under two contexts: off(name, fn, context) removes that registration only', async () => {
    const r = receiver();
    const seen: string[] = [];
    function onCall(this: { name: string }) {
      seen.push(this.name);
    }
    const [first, second] = [{ name: 'first' }, { name: 'second' }];
    r.addListener('call.incoming', onCall, first);
    r.once('call.incoming', onCall, second);
    r.off('call.incoming', onCall, first);
    await r.handle(delivery('evt_a'));
    await r.handle(delivery('evt_b'));
    expect(seen).toEqual(['second']);
    r.on('call.incoming', onCall, first);
    await r.handle(delivery('evt_c'));
    expect(seen).toEqual(['second', 'first']);
  });

  it('a once() listener spent by the user’s own emit() is not run again by a delivery', async () => {
    const r = receiver();
    let runs = 0;
    r.once('call.incoming', () => void runs++);
    r.emit('call.incoming', JSON.parse(delivery().body));
    expect(runs).toBe(1);
    await r.handle(delivery());
    expect(runs).toBe(1);
  });
});
