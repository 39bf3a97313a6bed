import { Hono } from 'hono';
import type { WebhookReceiver } from 'telephony-sdk/webhooks';

export function createApp(receiver: WebhookReceiver) {
  const app = new Hono();
  // c.req.raw is the unread Request: the receiver reads its exact bytes.
  app.post('/webhooks', (c) => receiver.fetchHandler(c.req.raw));
  return app;
}
