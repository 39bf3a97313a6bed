/**
 * Register a webhook for call events, signed with the secret the receiver examples verify with
 * (env.ts: TELEPHONY_WEBHOOK_SECRET, else the examples' shared value). To see deliveries, start a
 * receiver and point both at one service, e.g. `npx telephony-sandbox` and its TELEPHONY_* lines:
 *   PORT=3000 npx tsx examples/webhooks-node-http.ts
 *   WEBHOOK_URL=http://127.0.0.1:3000/webhooks npx tsx examples/webhooks-register.ts
 */
import { clientFromEnv, webhookSecret } from './env.js';

const client = await clientFromEnv();
const created = await client.webhooks.create({
  url: process.env.WEBHOOK_URL ?? 'http://127.0.0.1:3000/webhooks',
  events: ['call.incoming', 'call.answered', 'call.ended'],
  secret: webhookSecret,
  description: 'CRM sync',
});
console.log('registered', created);
console.log(
  `signed with ${process.env.TELEPHONY_WEBHOOK_SECRET ? 'TELEPHONY_WEBHOOK_SECRET' : "the examples' shared secret"}:`,
  'the receiver examples verify with the same',
);
