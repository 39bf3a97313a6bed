import { concatBytes } from '../shared/bytes.js';
import type { WebhookReceiver } from './receiver.js';

/** The parts of node's IncomingMessage the adapter uses (no @types/node in the public types). */
export interface NodeRequest {
  method?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  /** Set by body-parsing middleware; a Buffer from `express.raw()` is used as is. */
  body?: unknown;
  readableEnded?: boolean;
  on(event: string, listener: (chunk: Uint8Array) => void): unknown;
}

/** The parts of node's ServerResponse the adapter uses. */
export interface NodeResponse {
  writeHead(status: number, headers?: Record<string, string>): unknown;
  end(body?: string): unknown;
}

const CONSUMED =
  'The request body was already consumed by a body parser, so its exact bytes cannot be verified. ' +
  "Mount the receiver before any JSON parser, or use express.raw({ type: 'application/json' }) on its route.";

function readBody(req: NodeRequest): Promise<Uint8Array> {
  if (req.body instanceof Uint8Array) return Promise.resolve(req.body);
  if (req.body !== undefined || req.readableEnded) return Promise.reject(new Error(CONSUMED));
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(concatBytes(chunks)));
    req.on('error', reject);
  });
}

/** node:http / Express adapter over {@link WebhookReceiver.handle}. */
export function nodeHandler(receiver: WebhookReceiver, req: NodeRequest, res: NodeResponse): void {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' });
    res.end();
    return;
  }
  readBody(req)
    .then((body) => receiver.handle({ body, headers: req.headers }))
    .then(
      ({ status }) => {
        res.writeHead(status);
        res.end();
      },
      (error: Error) => {
        // A setup bug on the receiving side: answer 500 so the service retries once it is fixed.
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(error.message);
      },
    );
}
