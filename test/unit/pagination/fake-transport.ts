import type { RawRequest, Transport } from 'telephony-sdk';

/** A Transport that answers from a function and records every request. */
export function fakeTransport(answer: (request: RawRequest) => unknown) {
  const requests: RawRequest[] = [];
  const transport: Transport = {
    async send(request) {
      requests.push(request);
      return answer(request);
    },
    async download(request) {
      requests.push(request);
      return new Response('audio');
    },
  };
  return { transport, requests };
}
