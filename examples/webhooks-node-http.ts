/**
 * A node:http webhook receiver on 127.0.0.1, verifying with the secret webhooks-register.ts signs
 * with (env.ts). Run: npx tsx examples/webhooks-node-http.ts
 *
 * With no TELEPHONY_BASE_URL it takes a tour and exits: a sandbox in this process registers the
 * receiver, an incoming call rings, is answered and hung up, and the receiver prints each signed
 * delivery it verified. With TELEPHONY_BASE_URL set it listens on PORT (default 3000) until
 * stopped, for the service to deliver to; register it with webhooks-register.ts.
 */
import { createServer } from 'node:http';
import { WebhookReceiver } from 'telephony-sdk/webhooks';
import { inProcess, inProcessSandbox, webhookSecret } from './env.js';

const receiver = new WebhookReceiver({ secret: webhookSecret });
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
const port = Number(process.env.PORT ?? (inProcess ? 0 : 3000));
await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
const address = server.address();
const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}/webhooks`;
console.log(`receiving webhooks on ${url}`);

if (inProcess) {
  const { sandbox, client } = await inProcessSandbox();
  await client.webhooks.create({
    url,
    events: ['call.incoming', 'call.answered', 'call.ended'],
    secret: webhookSecret,
  });
  const call = sandbox.simulateIncomingCall({ from: '+15550001111', fromName: 'Ada' });
  sandbox.answerCall(call.id);
  await sandbox.advance(20_000);
  await client.calls.end(call.id);
  await sandbox.idle();
  const answered = sandbox.deliveries.map((delivery) => delivery.status).join(', ');
  console.log(`tour done: ${sandbox.deliveries.length} deliveries, answered ${answered}`);
  sandbox.close();
  server.close();
  server.closeAllConnections(); // the sandbox's fetch keeps its connections alive for a while
}
