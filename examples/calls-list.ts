// List recent calls: one page with await, then every inbound call with for await.
import { clientFromEnv } from './env.js';

const client = await clientFromEnv();
const page = await client.calls.listRecent({ limit: 10 });
console.log(`first page: ${page.items.length} calls`, page.pagination);
for await (const call of client.calls.listRecent({ direction: 'inbound', limit: 50 })) {
  console.log(call.timestamp, call.from.number, '→', call.to.number, call.status, `${call.duration}s`);
}
