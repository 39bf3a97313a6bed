import { describe, expect, it } from 'vitest';
import { serveSandbox } from './helpers.js';

describe('for await over calls.listRecent on the sandbox while calls arrive', () => {
  it('yields each call that existed at the start once, with arrivals per 2 items and in bursts', async () => {
    const { sandbox, client } = await serveSandbox();
    const arrive = async (count: number) => {
      for (let i = 0; i < count; i++) {
        await sandbox.advance(1);
        sandbox.simulateIncomingCall({ from: '+14155550199' });
      }
    };
    await arrive(300);
    const pages = await Promise.all(
      [0, 100, 200].map((offset) => client().calls.listRecent({ limit: 100, offset })),
    );
    const existing = new Set(pages.flatMap((page) => page.items.map((call) => call.id)));
    expect(existing.size).toBe(300);

    const yielded: string[] = [];
    for await (const call of client().calls.listRecent({ limit: 25 })) {
      yielded.push(call.id);
      await arrive(yielded.length % 2 === 0 ? 1 : 0);
      if (yielded.length === 100) await arrive(60);
    }
    const distinct = new Set(yielded);
    expect(yielded.length - distinct.size).toBe(0);
    expect([...existing].filter((id) => !distinct.has(id))).toEqual([]);
    expect([...distinct].filter((id) => !existing.has(id))).toEqual([]);
  });
});
