import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../../src/testing/http.js';
import { BASE, rawSandbox } from './helpers.js';

describe(`request bodies past ${MAX_BODY_BYTES} bytes`, () => {
  const body = (bytes: number) => {
    const shell = JSON.stringify({ name: 'Ada', email: 'ada@example.test', department: '' });
    return shell.replace('"department":""', `"department":"${'d'.repeat(bytes - shell.length)}"`);
  };
  const post = (sandbox: ReturnType<typeof rawSandbox>['sandbox'], text: string, headers = {}) =>
    sandbox.fetch(`${BASE}/v1/users`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${sandbox.credentials.apiKey}`,
        'content-type': 'application/json',
        ...headers,
      },
      body: text,
    });

  it('are 413 invalid_parameter, counted by what is read or by Content-Length; nothing is stored', async () => {
    const { sandbox, send } = rawSandbox();
    expect((await post(sandbox, body(MAX_BODY_BYTES))).status).toBe(200);
    for (const answer of [
      await post(sandbox, body(MAX_BODY_BYTES + 1)),
      await post(sandbox, '{}', { 'content-length': String(MAX_BODY_BYTES + 1) }),
    ]) {
      expect([answer.status, await answer.json()]).toEqual([
        413,
        {
          status: 'error',
          error: {
            code: 'invalid_parameter',
            message: `The request body is larger than ${MAX_BODY_BYTES} bytes`,
            status_code: 413,
          },
        },
      ]);
    }
    expect((await send('GET', '/v1/users', sandbox.credentials.apiKey)).body.pagination.total).toBe(1);
  });
});
