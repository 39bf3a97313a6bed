/**
 * Each traced call's requests are its own: the call is handed to the transport (a per-call copy of
 * the resource whose transport is bound to it), never read from shared state, so concurrent calls
 * and a method that awaits before it sends each land under the right span (a list's next page:
 * tracing.test.ts).
 */
import { HttpResponse, http } from 'msw';
import type { TelephonyClient } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { APIPromise, type WithResponse } from '../../../src/core/response/api-promise.js';
import { traceMethods } from '../../../src/core/tracing/trace-methods.js';
import type { TracingTransport } from '../../../src/core/tracing/traced-call.js';
import { APIResource } from '../../../src/resources/resource.js';
import { detailCall } from '../../fixtures/calls.js';
import { BASE, CANARY, testClient } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';
import { asyncContext, attemptPaths, otel } from '../../helpers/tracing.js';

asyncContext();

type Otel = ReturnType<typeof otel>;

function tracedClient(tracer: Otel['tracer']): TelephonyClient {
  return testClient({
    clientId: undefined,
    clientSecret: undefined,
    accessToken: CANARY.accessToken,
    tracer,
  });
}

/** A promise and the function that resolves it. */
function gate(): { open: () => void; opened: Promise<void> } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/**
 * A resource whose method awaits (its gate) before it sends, built as the SDK's own are
 * (`calls.end`): an `APIPromise` over the method's async body.
 */
class Late extends APIResource {
  readonly gates = new Map<string, ReturnType<typeof gate>>();

  get(id: string): APIPromise<unknown> {
    return new APIPromise(this.#get(id));
  }

  async #get(id: string): Promise<WithResponse<unknown>> {
    await this.gates.get(id)?.opened;
    return this.transport.send({ method: 'GET', path: `/v2/calls/${id}` }).withResponse();
  }
}

const detailHandler = () =>
  http.get(`${BASE}/v2/calls/:id`, ({ params }) =>
    HttpResponse.json({ status: 'success', data: { call: detailCall(String(params.id)) } }),
  );

describe('traced calls are bound, not current', () => {
  it('a method that awaits before sending, twice at once, released in reverse: each request under its own call', async () => {
    const { tracer, spans } = otel();
    server.use(detailHandler());
    const client = tracedClient(tracer);
    const late = new Late(client.transport);
    traceMethods(late, client.transport as TracingTransport, tracer, 'late.');
    late.gates.set('call_a', gate());
    late.gates.set('call_b', gate());
    const a = tracer.startActiveSpan('a', (span) => late.get('call_a').finally(() => span.end()));
    const b = tracer.startActiveSpan('b', (span) => late.get('call_b').finally(() => span.end()));
    late.gates.get('call_b')?.open();
    await b;
    late.gates.get('call_a')?.open();
    await a;
    expect(attemptPaths(spans())).toEqual(
      new Set(['a > late.get > GET > /v2/calls/call_a', 'b > late.get > GET > /v2/calls/call_b']),
    );
  });

  it('two concurrent calls whose answers come back in reverse order each get their own spans', async () => {
    const { tracer, spans } = otel();
    const answerA = gate();
    server.use(
      http.get(`${BASE}/v2/calls/:id`, async ({ params }) => {
        if (params.id === 'call_a') await answerA.opened;
        return HttpResponse.json({ status: 'success', data: { call: detailCall(String(params.id)) } });
      }),
    );
    const client = tracedClient(tracer);
    const a = tracer.startActiveSpan('a', (span) => client.calls.get('call_a').finally(() => span.end()));
    const b = tracer.startActiveSpan('b', (span) =>
      client.request({ method: 'GET', path: '/v2/calls/call_b' }).finally(() => span.end()),
    );
    await b;
    answerA.open();
    await a;
    expect(attemptPaths(spans())).toEqual(
      new Set(['a > calls.get > GET > /v2/calls/call_a', 'b > request > GET > /v2/calls/call_b']),
    );
  });

  it("a method that reads its resource's #private members runs traced (calls.waitFor, the client's clock), its read a call of its own", async () => {
    const { tracer, spans } = otel();
    server.use(detailHandler());
    const client = tracedClient(tracer);
    const done = await tracer.startActiveSpan('w', (span) =>
      client.calls.waitFor('call_a', 'answered').finally(() => span.end()),
    );
    expect(done.status).toBe('answered');
    expect(new Set(spans().map((span) => span.name))).toEqual(
      new Set(['w', 'calls.waitFor', 'calls.get', 'GET']),
    );
    expect(attemptPaths(spans())).toEqual(new Set(['w > calls.get > GET > /v2/calls/call_a']));
  });
});
