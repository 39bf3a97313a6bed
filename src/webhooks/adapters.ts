import { concatBytes } from '../shared/bytes.js';
import { TelephonyError } from '../shared/telephony-error.js';
import type { WebhookReceiver } from './receiver.js';

/** The parts of node's IncomingMessage the adapter uses (no @types/node in the public types). */
export interface NodeRequest {
  /** Request method; anything but POST is answered 405. */
  method?: string | undefined;
  /** Request headers (node lower-cases the names); `service-signature` is read from them. */
  headers: Record<string, string | string[] | undefined>;
  /** Set by body-parsing middleware; a Buffer from `express.raw()` is used as is. */
  body?: unknown;
  /** `true` when the body stream was already read (then the exact bytes are gone and the adapter answers 500). */
  readableEnded?: boolean;
  /** Subscribes to the body stream's `data`, `end` and `error` events. */
  on(event: string, listener: (chunk: Uint8Array) => void): unknown;
}

/** The parts of node's ServerResponse the adapter uses. */
export interface NodeResponse {
  /** Sets the status (200, 400, 401, 405 or 500) and headers. */
  writeHead(status: number, headers?: Record<string, string>): unknown;
  /** Finishes the answer: no body, except a 500 from misuse of the SDK (body already consumed), which explains it. */
  end(body?: string): unknown;
}

const CONSUMED =
  'The request body was already consumed by a body parser, so its exact bytes cannot be verified. ' +
  "Mount the receiver before any JSON parser, or use express.raw({ type: 'application/json' }) on its route.";

function readBody(req: NodeRequest): Promise<Uint8Array> {
  if (req.body instanceof Uint8Array) return Promise.resolve(req.body);
  if (req.body !== undefined || req.readableEnded) return Promise.reject(new TelephonyError(CONSUMED));
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
      (error: unknown) => {
        // A setup bug on the receiving side: answer 500 so the service retries once it is fixed. Only the
        // SDK's own misuse messages are repeated to the sender; anything else (a broken stream) is not.
        if (error instanceof TelephonyError) {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(error.message);
        } else {
          res.writeHead(500);
          res.end();
        }
      },
    );
}
