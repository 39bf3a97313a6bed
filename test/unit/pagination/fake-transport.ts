import { APIPromise, type RawRequest, type Transport } from 'telephony-sdk';

/** A Transport that answers from a function and records every request. */
export function fakeTransport(answer: (request: RawRequest) => unknown) {
  const requests: RawRequest[] = [];
  const transport: Transport = {
    send(request) {
      requests.push(request);
      const response = new Response(null);
      return new APIPromise(
        (async () => ({ data: await answer(request), response, requestId: 'req_fake' }))(),
      );
    },
    download(request) {
      requests.push(request);
      const response = new Response('audio');
      return new APIPromise(Promise.resolve({ data: response, response, requestId: 'req_fake' }));
    },
  };
  return { transport, requests };
}
