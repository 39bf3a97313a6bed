// Register a webhook for call events.
import { clientFromEnv } from './env.js';

const client = await clientFromEnv();
const created = await client.webhooks.create({
  url: process.env.WEBHOOK_URL ?? 'http://127.0.0.1:3000/webhooks',
  events: ['call.incoming', 'call.ended'],
  description: 'CRM sync',
});
console.log('registered', created);
