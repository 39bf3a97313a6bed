import express from 'express';
import type { WebhookReceiver } from 'telephony-sdk/webhooks';

export function createApp(receiver: WebhookReceiver) {
  const app = express();
  // The receiver reads the exact bytes itself: mount it before express.json().
  app.post('/webhooks', receiver.nodeHandler);
  app.use(express.json());
  // ... your other routes
  return app;
}
