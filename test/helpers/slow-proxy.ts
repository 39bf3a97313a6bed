import { type AddressInfo, createConnection, createServer, type Socket } from 'node:net';

/** A TCP proxy on 127.0.0.1 that holds every answer of the server behind it for a while. */
export interface SlowProxy {
  /** `redis://127.0.0.1:<port>`: the server's address, through the proxy. */
  readonly url: string;
  /** How long each chunk of the server's answers is held before it is passed on (ms); settable. */
  delayMs: number;
  /** Closes the proxy and every connection through it. */
  close(): Promise<void>;
}

/**
 * A slow store for tests: a real server whose answers reach the client `delayMs` late (what a loaded
 * host, a long network path or a busy Redis does). What the client sends passes at once; the answers
 * keep their order (every chunk is held equally long).
 */
export async function slowProxy(target: { host: string; port: number }, delayMs: number): Promise<SlowProxy> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection({ host: target.host, port: target.port });
    sockets.add(client).add(upstream);
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => {
      setTimeout(() => {
        if (!client.destroyed) client.write(chunk);
      }, proxy.delayMs);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', () => {
        sockets.delete(socket);
        end();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const proxy: SlowProxy = {
    url: `redis://127.0.0.1:${port}`,
    delayMs,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
