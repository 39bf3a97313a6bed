// Register a webhook for call events.
import { clientFromEnv } from './env.js';

const client = clientFromEnv();
const created = await client.webhooks.create({
  url: process.env.WEBHOOK_URL ?? 'https://example.com/telephony/webhooks',
  events: ['call.incoming', 'call.ended'],
  description: 'CRM sync',
});
console.log('registered', created);
