// Call statistics for the last 7 days, by day.
import { clientFromEnv } from './env.js';

const client = await clientFromEnv();
const to = new Date();
const from = new Date(to.getTime() - 7 * 24 * 3600 * 1000);
const stats = await client.stats.calls({ from, to, group_by: 'day' });
console.log(
  `${stats.total_calls} calls, ${stats.answered_calls} answered, average ${stats.average_duration}s`,
);
for (const day of stats.by_day ?? []) console.log(day.date, day.total_calls);
