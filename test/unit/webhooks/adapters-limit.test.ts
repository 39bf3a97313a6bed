import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { WebhookReceiver } from 'telephony-sdk/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { SECRET } from './helpers.js';

const LIMIT = 4096;
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A receiver behind node:http on 127.0.0.1, with the bytes each server-side connection read. */
async function serve(): Promise<{ port: number; bytesRead: () => number[] }> {
  const receiver = new WebhookReceiver({ secret: SECRET, maxBodyBytes: LIMIT });
  const server = createServer(receiver.nodeHandler);
  servers.push(server);
  const sockets: Socket[] = [];
  server.on('connection', (socket: Socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { port, bytesRead: () => sockets.map((socket) => socket.bytesRead) };
}

/**
 * Sends `head`, then body chunks for as long as the server keeps the connection open (`endless`), or
 * one chunk; resolves, once the server has closed the connection, with the answer's status line and
 * its `connection` header.
 */
function post(
  port: number,
  head: string[],
  endless: boolean,
): Promise<{ status: string; connection: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let answer = '';
    let open = true;
    const send = () => {
      // Chunked framing when endless: the body never ends, so only the server can stop it.
      while (open && endless && socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`));
    };
    socket.on('drain', send);
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => {
      answer += data;
    });
    socket.on('error', (error) => {
      if (answer === '') reject(error);
    });
    socket.on('close', () => {
      open = false;
      const [status = '', ...lines] = answer.split('\r\n\r\n')[0]?.split('\r\n') ?? [];
      const connection = lines
        .find((line) => /^connection:/i.test(line))
        ?.slice('connection:'.length)
        .trim();
      resolve({ status, connection: connection ?? '' });
    });
    socket.write(
      `${[...head, 'host: 127.0.0.1', 'content-type: application/json', 't-signature: x'].join('\r\n')}\r\n\r\n`,
    );
    if (endless) send();
    else socket.write(chunk);
  });
}

describe('nodeHandler stops reading at maxBodyBytes (raw sockets on 127.0.0.1)', () => {
  it('answers an endless chunked POST 413 and closes the connection, having read a bounded part of it (never answered before)', async () => {
    const { port, bytesRead } = await serve();
    const answer = await post(port, ['POST /hooks HTTP/1.1', 'transfer-encoding: chunked'], true);
    expect(answer).toEqual({ status: 'HTTP/1.1 413 Payload Too Large', connection: 'close' });
    const [read = 0] = bytesRead();
    expect(read).toBeGreaterThan(LIMIT);
    expect(read).toBeLessThan(4 * 1024 * 1024);
  });

  it('answers Content-Length: 10 GB with 413 at once and closes, before the body arrives', async () => {
    const { port, bytesRead } = await serve();
    const answer = await post(port, ['POST /hooks HTTP/1.1', `content-length: ${10 * 1024 ** 3}`], false);
    expect(answer).toEqual({ status: 'HTTP/1.1 413 Payload Too Large', connection: 'close' });
    // Closed by the server on its answer (not kept alive to read the 10 GB): one chunk sent, about one read.
    expect(bytesRead()[0]).toBeLessThan(1024 * 1024);
  });
});
