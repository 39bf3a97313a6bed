import { APIPromise, type RawRequest, type Transport } from 'telephony-sdk';

/** A Transport that answers from a function and records every request. */
export function fakeTransport(answer: (request: RawRequest) => unknown) {
  const requests: RawRequest[] = [];
  const transport: Transport = {
    send(request) {
      requests.push(request);
      return new APIPromise((async () => ({ data: await answer(request), response: new Response(null) }))());
    },
    async download(request) {
      requests.push(request);
      return new Response('audio');
    },
  };
  return { transport, requests };
}
