// A process that takes the shared token lock and dies holding it (test/integration/redis-lock-holder.test.ts):
// a TelephonyClient sharing its state through Redis whose token request never answers, so it holds
// the lock and renews its lease as the SDK does, until the test SIGKILLs it. Run as
//   node --import tsx test/integration/lock-holder-worker.ts <driver> <redis url> <base url> <client id>
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { TelephonyClient } from 'telephony-sdk';
import { type RedisConnection, redisState } from 'telephony-sdk/redis';

/** Its arguments, in order. */
export type LockHolderArgs = [
  driver: 'node-redis' | 'ioredis',
  redisUrl: string,
  baseUrl: string,
  clientId: string,
];

const [driver, redisUrl = '', baseUrl = '', clientId = ''] = process.argv.slice(2);

async function connect(): Promise<RedisConnection> {
  if (driver === 'node-redis') {
    const client = createClient({ url: redisUrl });
    client.on('error', () => {});
    return client.connect();
  }
  const client = new Redis(redisUrl, { lazyConnect: true });
  client.on('error', () => {});
  await client.connect();
  return client;
}

const sdk = new TelephonyClient({
  baseUrl,
  clientId,
  clientSecret: 'secret_lock_holder',
  sharedState: redisState(await connect()),
  // The token request hangs (an endpoint that accepted the connection and never answers).
  fetch: () => new Promise<Response>(() => {}),
});
console.log('READY');
await sdk.calls.listRecent();
