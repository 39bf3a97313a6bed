/**
 * Child process of the webhooks row: the SDK's verification where node:crypto is out of reach,
 * as on Workers, Deno Deploy or in a browser. `process.getBuiltinModule` is removed before the
 * SDK loads, so only Web Crypto is left; prints the measured rows as JSON on stdout.
 */
Reflect.deleteProperty(process, 'getBuiltinModule');

const { compare } = await import('./harness.js');
const { webhookBody } = await import('./fixtures.js');
const { loadSdkWebhooks } = await import('./sdk.js');
const { default: Stripe } = await import('stripe');

const SECRET = 'whsec_bench_secret_0123456789';
const body = webhookBody(1024);
const sdk = await loadSdkWebhooks();
if (!sdk) {
  console.log(JSON.stringify(null));
} else {
  const header = await sdk.signWebhook(body, SECRET, { timestamp: Math.floor(Date.now() / 1000) });
  const stripeHeader = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET });
  const provider = Stripe.createSubtleCryptoProvider();
  const measured = await compare(
    [
      {
        name: 'Stripe constructEventAsync (Web Crypto)',
        run: () => Stripe.webhooks.constructEventAsync(body, stripeHeader, SECRET, undefined, provider),
      },
      {
        name: 'telephony-sdk verifyWebhook (Web Crypto only)',
        run: () => sdk.verifyWebhook(body, header, SECRET),
      },
    ],
    { rounds: 7, runsPerRound: 300, warmupRuns: 30 },
  );
  console.log(JSON.stringify(measured));
}
