/**
 * A fetch-style receiver (Hono, Next.js route handlers, Bun, Deno, Workers all take `(Request) => Response`),
 * driven here by one signed Request. Run: npx tsx examples/webhooks-fetch.ts
 */
import { signWebhook, verifyWebhook, WebhookReceiver } from 'telephony-sdk/webhooks';

const secret = process.env.TELEPHONY_WEBHOOK_SECRET ?? 'whsec_example';
const receiver = new WebhookReceiver({ secret });
receiver.on('call.incoming', (event) => console.log(`incoming call from ${event.data.call.from.number}`));

// e.g. Next.js: export const POST = receiver.fetchHandler;  Bun: Bun.serve({ fetch: receiver.fetchHandler })
const body = JSON.stringify({
  id: 'evt_example',
  type: 'call.incoming',
  created_at: new Date().toISOString(),
  data: {
    call: {
      id: 'call_1',
      direction: 'inbound',
      from: { number: '+15551234567' },
      to: { number: '+15557654321' },
      status: 'ringing',
      timestamp: new Date().toISOString(),
    },
  },
});
const request = new Request('http://127.0.0.1/webhooks', {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'service-signature': await signWebhook(body, secret) },
  body,
});
console.log('receiver answered', (await receiver.fetchHandler(request)).status);

// Without the receiver: verify yourself, from the raw text (never from request.json()).
const event = await verifyWebhook(body, await signWebhook(body, secret), secret);
if (event.type === 'call.incoming') console.log('verified', event.id, event.data.call.status);
