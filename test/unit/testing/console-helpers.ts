import { createSandbox, type SandboxOptions } from 'telephony-sdk/testing';
import { withConsole } from '../../../src/testing/console/server.js';
import { consoleWorldOf } from '../../../src/testing/sandbox.js';

export const ORIGIN = 'http://127.0.0.1:4010';

/** The console's handler over a sandbox, as `listen({ console: true })` serves it on port 4010. */
export function consoleOf(options: SandboxOptions = {}) {
  const sandbox = createSandbox(options);
  const passedOn: string[] = [];
  const handle = withConsole(consoleWorldOf(sandbox), async (request) => {
    passedOn.push(new URL(request.url).pathname);
    return new Response('api');
  });
  const post = async (action: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await handle(
      new Request(`${ORIGIN}/_console/api/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }),
    );
    // biome-ignore lint/suspicious/noExplicitAny: answers are inspected field by field.
    return { status: response.status, body: (await response.json()) as any };
  };
  return { sandbox, handle, post, passedOn };
}

/** Reads server-sent events from a stream until `count` have arrived. */
export async function readEvents(reader: ReadableStreamDefaultReader<Uint8Array>, count: number) {
  const events: { event: string; data: unknown }[] = [];
  let buffered = '';
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += new TextDecoder().decode(value);
    const blocks = buffered.split('\n\n');
    buffered = blocks.pop() ?? '';
    for (const block of blocks) {
      const [, event = '', data = ''] = /^event: (.*)\ndata: (.*)$/.exec(block) ?? [];
      events.push({ event, data: JSON.parse(data) });
    }
  }
  return events;
}
