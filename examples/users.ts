// v1 users (API key): create, update, read, list every page, delete.
import { clientFromEnv } from './env.js';

const client = await clientFromEnv();
const user = await client.users.create({
  name: 'Ann Lee',
  email: `ann.${Date.now()}@example.com`,
  role: 'user',
});
await client.users.update(user.id, { status: 'active', department: 'Support' });
console.log('read', await client.users.get(user.id));
for await (const each of client.users.list({ per_page: 100, status: 'active' }))
  console.log(each.id, each.email);
console.log('deleted', await client.users.delete(user.id));
