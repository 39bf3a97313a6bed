import { concatBytes } from '../shared/bytes.js';
import { TelephonyError } from '../shared/telephony-error.js';
import { type Answer, answerBody } from './answer.js';
import { bodyAlreadyReadMessage } from './body-read-hint.js';
import type { WebhookReceiver } from './receiver.js';
import { isThenable } from './timers.js';

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
  /** Sets the status (200, 400, 401, 405, 409, 413 or 500) and headers. */
  writeHead(status: number, headers?: Record<string, string>): unknown;
  /**
   * Finishes the answer: a 2xx has no body; any other a JSON `{ "error": "<reason>" }`, except a 500
   * from misuse of the SDK (body already consumed), whose text explains it. A 413 is sent with
   * `connection: close`, so node closes the connection instead of reading the rest.
   */
  end(body?: string): unknown;
}

/** A body over the receiver's `maxBodyBytes`: answered 413 without verifying it. */
const TOO_LARGE = Symbol('too large');

/** Reports a body already read (the receiver's `body_already_read`) and answers the message for the sender. */
export type BodyAlreadyRead = (message: string) => string;

/**
 * Reads the exact bytes, then calls `done` with them (or TOO_LARGE) or `failed` with why not, once.
 * Callbacks rather than a promise: the answer to a synchronous delivery is written in the tick the
 * body ended. A body in one chunk (nearly every webhook) is used as it is, not copied.
 */
function readBody(
  req: NodeRequest,
  res: NodeResponse,
  limit: number,
  alreadyRead: BodyAlreadyRead,
  done: (body: Uint8Array | typeof TOO_LARGE) => void,
  failed: (error: unknown) => void,
): void {
  if (req.body instanceof Uint8Array) {
    done(req.body);
    return;
  }
  // Express 4's body parsers leave `{}` on a request whose type they skip, without reading the stream.
  const parsed = req.body !== undefined && !(isPlainObject(req.body) && Object.keys(req.body).length === 0);
  if (parsed || req.readableEnded) {
    failed(new TelephonyError(alreadyRead(bodyAlreadyReadMessage(req, res))));
    return;
  }
  if (Number(req.headers['content-length']) > limit) {
    done(TOO_LARGE);
    return;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  let settled = false;
  const settle = (then: () => void) => {
    if (settled) return;
    settled = true;
    then();
  };
  // Settled at the first byte past the limit: the 413 goes out at once and closes the connection, so
  // an endless body is neither kept nor read to its end.
  req.on('data', (chunk) => {
    size += chunk.byteLength;
    if (size > limit) settle(() => done(TOO_LARGE));
    else chunks.push(chunk);
  });
  req.on('end', () =>
    settle(() => done(chunks.length === 1 ? (chunks[0] as Uint8Array) : concatBytes(chunks))),
  );
  req.on('error', (error) => settle(() => failed(error)));
}

function isPlainObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** The receiver's answer to one delivery: synchronous when every step was; throws (or rejects) on misuse. */
export type AnswerDelivery = (delivery: {
  body: Uint8Array;
  headers: NodeRequest['headers'];
}) => Answer | Promise<Answer>;

/** node:http / Express adapter over the receiver's {@link WebhookReceiver.handle}. */
export function nodeHandler(
  answer: AnswerDelivery,
  maxBodyBytes: number,
  req: NodeRequest,
  res: NodeResponse,
  alreadyRead: BodyAlreadyRead,
): void {
  if (req.method !== 'POST') {
    writeAnswer(res, { status: 405, reason: 'method_not_allowed' }, { allow: 'POST' });
    return;
  }
  // A setup bug on the receiving side: answer 500 so the service retries once it is fixed. Only the
  // SDK's own misuse messages are repeated to the sender; anything else (a broken stream) is not.
  const failed = (error: unknown) => {
    if (error instanceof TelephonyError) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(error.message);
    } else {
      res.writeHead(500);
      res.end();
    }
  };
  // Keeping the connection after a 413 would make node read the rest of the body to reach the next request.
  const write = (given: Answer) =>
    writeAnswer(res, given, given.status === 413 ? { connection: 'close' } : undefined);
  readBody(
    req,
    res,
    maxBodyBytes,
    alreadyRead,
    (body) => {
      if (body === TOO_LARGE) return write({ status: 413, reason: 'payload_too_large' });
      let given: Answer | Promise<Answer>;
      try {
        given = answer({ body, headers: req.headers });
      } catch (error) {
        return failed(error);
      }
      if (isThenable(given)) given.then(write, failed);
      else write(given);
    },
    failed,
  );
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** Writes the status and, for a non-2xx, its `{ "error": "<reason>" }` body. */
function writeAnswer(res: NodeResponse, answer: Answer, headers?: Record<string, string>): void {
  const body = answerBody(answer);
  res.writeHead(answer.status, body === undefined ? headers : { ...headers, ...JSON_TYPE });
  res.end(body);
}

/** fetch-style adapter over {@link WebhookReceiver.handle}. */
export async function fetchHandler(
  receiver: WebhookReceiver,
  request: Request,
  alreadyRead: BodyAlreadyRead,
): Promise<Response> {
  if (request.method !== 'POST')
    return response({ status: 405, reason: 'method_not_allowed' }, { allow: 'POST' });
  // Already read (by middleware, or request.json()): the exact bytes are gone. The receiving side's
  // bug, not the sender's: 500 (the service retries once it is fixed), with the cause for the developer
  // (a string body is sent as text/plain).
  if (request.bodyUsed)
    return new Response(alreadyRead('Body already read: pass the Request unread, or a clone()'), {
      status: 500,
    });
  const body = await readRequest(request, receiver.maxBodyBytes);
  return response(
    body === TOO_LARGE
      ? { status: 413, reason: 'payload_too_large' }
      : await receiver.handle({ body, headers: request.headers }),
  );
}

/** The status and, for a non-2xx, its `{ "error": "<reason>" }` body. */
function response(answer: Answer, headers?: Record<string, string>): Response {
  const body = answerBody(answer);
  return new Response(body ?? null, {
    status: answer.status,
    headers: body === undefined ? (headers ?? {}) : { ...headers, ...JSON_TYPE },
  });
}

/** A fetch-style request's exact bytes, read up to `limit` (a larger body is cancelled, not buffered). */
async function readRequest(request: Request, limit: number): Promise<Uint8Array | typeof TOO_LARGE> {
  if (Number(request.headers.get('content-length')) > limit) return TOO_LARGE;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body?.getReader();
  if (reader)
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength;
      if (size > limit) {
        await reader.cancel();
        return TOO_LARGE;
      }
      chunks.push(read.value);
    }
  return concatBytes(chunks);
}
