import { expect } from 'vitest';
import { rawRequest } from './raw-http.js';

/**
 * Request lines that once ended the sandbox's process, or that node's parser refuses, each on its
 * own connection, with the status the sandbox must answer: fetch's `Request` refuses TRACE, TRACK
 * and CONNECT, llhttp an unknown method, and `new URL` the target `//[`.
 */
export const HOSTILE_REQUESTS: ReadonlyArray<readonly [string, number]> = [
  ['TRACE /v2/calls/recent HTTP/1.1', 405],
  ['TRACK /v2/calls/recent HTTP/1.1', 405],
  ['CONNECT 127.0.0.1:443 HTTP/1.1', 405],
  ['BREW /v2/calls/recent HTTP/1.1', 405],
  ['GET //[ HTTP/1.1', 400],
  ['GET http://[ HTTP/1.1', 400],
];

/** Sends each hostile request to the server on `port`, then checks it still serves the next request. */
export async function expectToSurvive(port: number): Promise<void> {
  const answers: Array<readonly [string, number]> = [];
  for (const [line] of HOSTILE_REQUESTS) {
    const answer = await rawRequest(port, [line, `Host: 127.0.0.1:${port}`, 'Connection: close']);
    answers.push([line, answer.status]);
  }
  expect(answers).toEqual(HOSTILE_REQUESTS);
  // Still serving: a fresh request gets its normal answer (401 without a credential).
  const next = await rawRequest(port, [
    'GET /v2/calls/recent HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    'Connection: close',
  ]);
  expect([next.status, JSON.parse(next.body).code]).toEqual([401, 'unauthorized']);
}
