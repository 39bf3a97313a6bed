import { connect } from 'node:net';

/** What came back on a raw connection. */
export interface RawAnswer {
  /** The status code of the answer's status line. */
  status: number;
  /** Its headers, names lower-cased. */
  headers: Record<string, string>;
  /** Its body, de-chunked. */
  body: string;
}

function decode(text: string): RawAnswer {
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  let body = rest.join('\r\n\r\n');
  if (headers['transfer-encoding'] === 'chunked') {
    let chunked = body;
    body = '';
    for (let size = Number.parseInt(chunked, 16); size > 0; size = Number.parseInt(chunked, 16)) {
      const start = chunked.indexOf('\r\n') + 2;
      body += chunked.slice(start, start + size);
      chunked = chunked.slice(start + size + 2);
    }
  }
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0);
  // Read as latin1 so chunk sizes count bytes; the body itself is UTF-8.
  return { status, headers, body: Buffer.from(body, 'latin1').toString('utf8') };
}

/**
 * Writes `head` (the request line, then header lines) and each part of `body` on a new connection to
 * 127.0.0.1:`port`, and resolves with the answer once the server has closed the connection. Raw,
 * because fetch would normalise the request target and the Host header, and cannot stop half-way
 * through a body it declared. A reset after the answer (the server closed with part of the body
 * unread) still resolves; one before any answer rejects.
 */
export function rawRequest(
  port: number,
  head: string[],
  body: ReadonlyArray<string | Uint8Array> = [],
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', (error) => {
      if (received === '') reject(error);
    });
    socket.on('close', () => {
      if (received !== '') resolve(decode(received));
    });
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
    for (const part of body) socket.write(part);
  });
}

/** `POST /v2/oauth/token` for `clientId` and `clientSecret`, raw, naming `host` in its Host header. */
export function rawTokenRequest(port: number, host: string, clientId: string, clientSecret: string) {
  const form = `grant_type=client_credentials&client_id=${clientId}&client_secret=${clientSecret}`;
  const head = [
    'POST /v2/oauth/token HTTP/1.1',
    `Host: ${host}`,
    'Content-Type: application/x-www-form-urlencoded',
    `Content-Length: ${Buffer.byteLength(form)}`,
    'Connection: close',
  ];
  return rawRequest(port, head, [form]);
}
