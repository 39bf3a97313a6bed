import { APIError, NotFoundError, TelephonyClient, ValidationError } from 'telephony-sdk';
import { describe, expect, it } from 'vitest';
import { BASE, CANARY, rejection, testClient } from '../../helpers/client.js';

/** "A few thousand characters": no message may be longer, whatever was sent or received. */
const LIMIT = 3000;
const HUGE = 5_000_000;

/** A client whose fetch gives every request `answer()`. */
function clientAnswering(answer: () => Response) {
  return testClient({
    accessToken: CANARY.accessToken,
    maxRetries: 0,
    fetch: (async () => answer()) as typeof fetch,
  });
}

function expectBounded(error: Error) {
  expect(error.message.length).toBeLessThanOrEqual(LIMIT);
  expect(error.message).toContain('…');
}

describe('messages are bounded whatever was sent', () => {
  it('a 5 MB id: its operation name is cut', async () => {
    const client = clientAnswering(() =>
      Response.json({ status: 'error', code: 'not_found', message: 'Call not found' }, { status: 404 }),
    );
    const error = await rejection(client.calls.get('c'.repeat(HUGE)));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe(`GET /v2/calls/${'c'.repeat(190)}… → 404 not_found: Call not found`);
  });

  it('a 5 MB path without the base URL it needs, or the credential', async () => {
    const noBase = new TelephonyClient({ baseUrl: BASE, accessToken: 'tok' });
    expectBounded(await rejection(noBase.request({ method: 'GET', path: `/v1/${'u'.repeat(HUGE)}` })));
    const noKey = new TelephonyClient({ baseUrl: BASE, baseUrlV1: BASE, accessToken: 'tok' });
    expectBounded(await rejection(noKey.request({ method: 'GET', path: `/v1/${'u'.repeat(HUGE)}` })));
  });

  it('a recording URL with a 5 MB path on another host, or outside the base URL', async () => {
    const error = await rejection(
      testClient().calls.downloadRecording(`https://cdn.test/${'r'.repeat(HUGE)}`),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message.length).toBeLessThanOrEqual(LIMIT);
    // On the base's host but outside its path prefix: refused naming where it would have gone.
    const sameHost = await rejection(
      testClient({ baseUrl: `${BASE}/telephony` }).calls.downloadRecording(`${BASE}/v2/${'r'.repeat(HUGE)}`),
    );
    expect(sameHost).toBeInstanceOf(ValidationError);
    expectBounded(sameHost);
  });

  it('100 000 unknown params, a 5 MB option name, a 5 MB header name', async () => {
    const params = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`unknown_${i}`, 1]));
    const unknownParams = await rejection(testClient().calls.listRecent(params as never));
    expect(unknownParams).toBeInstanceOf(ValidationError);
    expectBounded(unknownParams);
    expect((unknownParams as unknown as ValidationError).issues).toHaveLength(100_000);

    const option = () => new TelephonyClient({ baseUrl: BASE, [`o${'p'.repeat(HUGE)}`]: 1 } as never);
    expect(option).toThrow(ValidationError);
    expect(() => option()).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/^.{1,3000}$/s) }),
    );

    const header = await rejection(
      testClient().request(
        { method: 'GET', path: '/v2/x' },
        { headers: { [`x-${'h'.repeat(HUGE)}`]: '\n' } },
      ),
    );
    expect(header).toBeInstanceOf(ValidationError);
    expectBounded(header);
  });
});

describe('messages are bounded whatever was received', () => {
  it('a 5 MB message and a 1 MB code from the service are cut', async () => {
    const client = clientAnswering(() =>
      Response.json(
        { status: 'error', code: 'k'.repeat(1_000_000), message: 'm'.repeat(HUGE) },
        { status: 409 },
      ),
    );
    const error = await rejection(client.request({ method: 'GET', path: '/v2/x' }));
    expect(error).toBeInstanceOf(APIError);
    expect(error.message).toBe(`GET /v2/x → 409 ${'k'.repeat(100)}…: ${'m'.repeat(1000)}…`);
    expect(error.code).toBe(`${'k'.repeat(100)}…`);
    // The body keeps what was said, as data.
    expect((error.body as { message: string }).message).toHaveLength(HUGE);
  });

  it('a v1 message, a token error description, a redirect to a 5 MB location', async () => {
    const v1 = await rejection(
      testClient({
        maxRetries: 0,
        fetch: (async () =>
          Response.json(
            { status: 'error', error: { code: 'bad', message: 'v'.repeat(HUGE), status_code: 400 } },
            { status: 400 },
          )) as typeof fetch,
      }).request({ method: 'GET', path: '/v1/users' }),
    );
    expectBounded(v1);

    const token = await rejection(
      testClient({
        fetch: (async () =>
          Response.json(
            { error: 'invalid_client', error_description: 'd'.repeat(HUGE) },
            { status: 401 },
          )) as typeof fetch,
      }).request({ method: 'GET', path: '/v2/x' }),
    );
    expectBounded(token);

    const redirect = await rejection(
      clientAnswering(
        () =>
          new Response(null, {
            status: 302,
            headers: { location: `https://elsewhere.test/${'l'.repeat(HUGE)}` },
          }),
      ).request({ method: 'GET', path: '/v2/x' }),
    );
    expect(redirect).toMatchObject({ status: 302, code: 'redirect_not_followed' });
    expectBounded(redirect);
  });
});
