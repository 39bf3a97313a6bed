import express from 'express';
import type { WebhookReceiver } from 'telephony-sdk/webhooks';

export function createApp(receiver: WebhookReceiver) {
  const app = express();
  // express.json() already mounted first: it skips the receiver's route, which keeps the exact bytes.
  const json = express.json();
  app.use((req, res, next) => (req.path === '/webhooks' ? next() : json(req, res, next)));
  app.post('/webhooks', receiver.nodeHandler);
  // ... your other routes
  return app;
}
