/**
 * The bench server as its own process, so the server's CPU does not share the client's event
 * loop: `node --import tsx bench/serve.ts '<options json>'` prints `{"url": …}` once listening.
 */
import { startBenchServer } from './server.js';

const server = await startBenchServer(JSON.parse(process.argv[2] ?? '{}'));
console.log(JSON.stringify({ url: server.url }));
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
