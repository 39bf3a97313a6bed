import Koa from 'koa';
import type { WebhookReceiver } from 'telephony-sdk/webhooks';

export function createApp(receiver: WebhookReceiver) {
  const app = new Koa();
  // Before any body parser; the receiver answers on node's response, so Koa must not answer too.
  app.use(async (ctx, next) => {
    if (ctx.path !== '/webhooks') return next();
    ctx.respond = false;
    receiver.nodeHandler(ctx.req, ctx.res);
  });
  // ... your body parser and other middleware
  return app;
}
