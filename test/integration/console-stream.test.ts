/**
 * The console's event stream over real HTTP: written as records happen, let go when the page
 * leaves, and no obstacle to closing the server.
 */
import { createSandbox } from 'telephony-sdk/testing';
import { expect, it, vi } from 'vitest';
import { consoleWorldOf } from '../../src/testing/sandbox.js';

it('streams records as they happen, unsubscribes when the client leaves, and close() ends open streams', async () => {
  const sandbox = createSandbox();
  const server = await sandbox.listen({ console: true });
  const { activity } = consoleWorldOf(sandbox);
  const subscribe = activity.subscribe.bind(activity);
  let left: () => void = () => {};
  const unsubscribed = new Promise<void>((resolve) => {
    left = resolve;
  });
  vi.spyOn(activity, 'subscribe').mockImplementation((listener) => {
    const stop = subscribe(listener);
    return () => {
      left();
      return stop();
    };
  });

  try {
    const leaving = new AbortController();
    const response = await fetch(`${server.consoleUrl}events`, { signal: leaving.signal });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = response.body?.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('event: snapshot')) text += decoder.decode((await reader?.read())?.value);
    sandbox.simulateIncomingCall({ from: '+15557654321' });
    while (!text.includes('event: activity')) text += decoder.decode((await reader?.read())?.value);
    expect(text).toContain('"callId":"call_000001"');

    leaving.abort();
    await unsubscribed;

    const staying = await fetch(`${server.consoleUrl}events`);
    await staying.body?.getReader().read();
  } finally {
    await server.close();
  }
});
