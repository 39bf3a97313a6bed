/**
 * The plan a 429 names is read from a copy of its body: from its first chunk only, so an endless or
 * huge 429 body is never read past it (the call's own reading stops at maxResponseBytes).
 */
import { HttpResponse, http } from 'msw';
import type { WarningEvent } from 'telephony-sdk';
import { expect, it } from 'vitest';
import { BASE, testClient } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

it('an endless 429 body: the plan it names warns once, and neither the copy nor the call reads on', async () => {
  let pulls = 0;
  const chunk = new TextEncoder().encode(`Rate limit of 3 requests per minute. ${'x'.repeat(4_000)}`);
  server.use(
    http.get(`${BASE}/v2/x`, () => {
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulls++;
          controller.enqueue(chunk);
        },
      });
      return new HttpResponse(body, { status: 429, headers: { 'retry-after': '0' } });
    }),
  );
  const client = testClient({
    clientId: undefined,
    clientSecret: undefined,
    accessToken: 'tok_plan',
    rateLimit: { requestsPerMinute: 5 },
    maxRetries: 0,
    maxResponseBytes: 16_384,
  });
  const warnings: WarningEvent[] = [];
  client.on('warning', (event) => warnings.push(event));
  await expect(client.request({ method: 'GET', path: '/v2/x' })).rejects.toMatchObject({ status: 429 });
  await turns(200);
  expect(warnings).toMatchObject([{ code: 'rate_limit_above_plan', planLimit: 3, rateLimit: 5 }]);
  // 16 KiB for the call's own error (4 chunks and one past), a chunk for the copy, a few queued by the stream.
  expect(pulls).toBeLessThan(12);
});
