import { type APIPromise, mapAnswer } from './response/api-promise.js';
import type { RawRequest, RequestOptions, Transport } from './types.js';

/**
 * A transport that checks a 2xx body within the call (the client's): a check that throws fails that
 * call, as an answer it cannot read would, so the error carries the call's `attempts` and `requestId`.
 */
export interface CheckingTransport extends Transport {
  sendChecked<R>(
    request: RawRequest,
    options: RequestOptions | undefined,
    check: (body: unknown) => R,
  ): APIPromise<R>;
}

/**
 * `request` sent and its answer's body checked by `check` (unwrap, schema): within the call on the
 * client's transport; after `send` on any other (a custom resource's own), whose calls have no ids.
 */
export function sendChecked<R>(
  transport: Transport,
  request: RawRequest,
  options: RequestOptions | undefined,
  check: (body: unknown) => R,
): APIPromise<R> {
  return 'sendChecked' in transport
    ? (transport as CheckingTransport).sendChecked(request, options, check)
    : mapAnswer(transport.send(request, options).withResponse(), check);
}
