/** A node:http webhook receiver on 127.0.0.1. Run: TELEPHONY_WEBHOOK_SECRET=... npx tsx examples/webhooks-node-http.ts */
import { createServer } from 'node:http';
import { WebhookReceiver } from 'telephony-sdk/webhooks';

const receiver = new WebhookReceiver({ secret: process.env.TELEPHONY_WEBHOOK_SECRET ?? 'whsec_example' });
receiver.on('call.incoming', async (event) => {
  console.log(`incoming call ${event.data.call.id} from ${event.data.call.from.number}`);
});
receiver.on('*', (event) => console.log(`event ${event.type} ${event.id}`));
receiver.on('verification_failed', ({ reason, status }) => console.warn(`refused (${status}): ${reason}`));
receiver.on('handler_error', ({ id, error }) =>
  console.error(`handler failed for ${id}; the service will retry`, error),
);

// nodeHandler reads the raw bytes itself: mount it before any JSON body parser.
const server = createServer(receiver.nodeHandler);
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const address = server.address();
  console.log(
    `receiving webhooks on http://127.0.0.1:${typeof address === 'object' && address ? address.port : ''}/`,
  );
});
