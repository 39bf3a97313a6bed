/**
 * A fetch-style receiver (Hono, Next.js route handlers, Bun, Deno, Workers all take
 * `(Request) => Response`). Run: npx tsx examples/webhooks-fetch.ts
 *
 * A handler like this one has no address of its own until a framework serves it, so this example
 * always uses a sandbox in its own process, which posts its signed deliveries straight into the
 * handler (its `deliveryFetch`); it registers the same secret webhooks-register.ts does (env.ts).
 */
import { verifyWebhook, WebhookReceiver } from 'telephony-sdk/webhooks';
import { inProcessSandbox, webhookSecret } from './env.js';

const receiver = new WebhookReceiver({ secret: webhookSecret });
receiver.on('call.incoming', (event) => console.log(`incoming call from ${event.data.call.from.number}`));
receiver.on('*', (event) => console.log(`event ${event.type} ${event.id}`));

// e.g. Next.js: export const POST = receiver.fetchHandler;  Bun: Bun.serve({ fetch: receiver.fetchHandler })
const { sandbox, client } = await inProcessSandbox({
  deliveryFetch: async (input, init) => receiver.fetchHandler(new Request(input, init)),
});
await client.webhooks.create({
  url: 'http://127.0.0.1/webhooks', // the sandbox delivers to loopback URLs only; deliveryFetch takes it
  events: ['call.incoming', 'call.missed'],
  secret: webhookSecret,
});
sandbox.missCall(sandbox.simulateIncomingCall({ from: '+15551234567' }).id);
await sandbox.idle();
for (const delivery of sandbox.deliveries) console.log('receiver answered', delivery.status);

// Without the receiver: verify yourself, from the raw text (never from request.json()).
// Deliveries run side by side, so find the incoming call's by its type, not by its place.
const incoming = sandbox.deliveries.find((delivery) => delivery.event.type === 'call.incoming');
if (incoming) {
  const event = await verifyWebhook(incoming.body, incoming.signature, webhookSecret);
  if (event.type === 'call.incoming') console.log('verified', event.id, event.data.call.status);
}
sandbox.close();
