// Place a call, read it back, then end it.
import { clientFromEnv } from './env.js';

const client = await clientFromEnv();
const call = await client.calls.create({ to: '+14155550123', record: true, custom_data: { ticket: 'T-1' } });
console.log('placed', call.id, call.status);
console.log('detail', await client.calls.get(call.id));
console.log('ended', await client.calls.end(call.id));
