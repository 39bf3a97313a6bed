import Fastify from 'fastify';
import type { WebhookReceiver } from 'telephony-sdk/webhooks';

export function createApp(receiver: WebhookReceiver) {
  const app = Fastify();
  // In a plugin of its own, so the Buffer parser applies to the receiver's route only.
  app.register(async (hooks) => {
    hooks.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
      done(null, body);
    });
    hooks.post<{ Body: Buffer }>('/webhooks', async (request, reply) => {
      const { status, body } = await receiver.handle({ body: request.body, headers: request.headers });
      if (body) reply.type('application/json'); // a refusal's { "error": reason }
      return reply.code(status).send(body);
    });
  });
  return app;
}
