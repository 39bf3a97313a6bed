import { createSandbox } from 'telephony-sdk/testing';
import { describe, expect, it } from 'vitest';

const BASE = 'http://sandbox.test';

async function answer(sandbox: ReturnType<typeof createSandbox>, path: string, authorization: string) {
  const response = await sandbox.fetch(`${BASE}${path}`, { headers: { authorization } });
  return {
    status: response.status,
    deprecation: response.headers.get('deprecation'),
    sunset: response.headers.get('sunset'),
  };
}

describe('sandbox option deprecationHeaders', () => {
  it('marks v1 answers with Deprecation (v1 date by default) and the Sunset given; v2 answers stay unmarked', async () => {
    const sandbox = createSandbox({ deprecationHeaders: { sunset: 'Thu, 31 Dec 2026 23:59:59 GMT' } });
    const v1 = `Bearer ${sandbox.credentials.apiKey}`;
    expect(await answer(sandbox, '/v1/users', v1)).toEqual({
      status: 200,
      deprecation: '@1703980800',
      sunset: 'Thu, 31 Dec 2026 23:59:59 GMT',
    });
    // An error answer is marked too: the headers describe the path, not the outcome.
    expect(await answer(sandbox, '/v1/users/nobody', v1)).toMatchObject({
      status: 404,
      deprecation: '@1703980800',
    });
    expect(await answer(sandbox, '/v2/calls/recent', 'Bearer nope')).toMatchObject({
      deprecation: null,
      sunset: null,
    });
    sandbox.close();
  });

  it('marks the paths named, with the values given; without the option nothing is marked', async () => {
    const sandbox = createSandbox({ deprecationHeaders: { path: '/v2/calls/recent', deprecation: 'true' } });
    expect(await answer(sandbox, '/v2/calls/recent', 'Bearer nope')).toMatchObject({
      status: 401,
      deprecation: 'true',
      sunset: null,
    });
    expect(await answer(sandbox, '/v1/users', `Bearer ${sandbox.credentials.apiKey}`)).toMatchObject({
      deprecation: null,
    });
    sandbox.close();
    const plain = createSandbox();
    expect(await answer(plain, '/v1/users', `Bearer ${plain.credentials.apiKey}`)).toMatchObject({
      status: 200,
      deprecation: null,
    });
    plain.close();
  });
});
