import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, CANARY, testClient, tokenHandler } from '../../helpers/client.js';
import { scanSuiteLines, suiteLogger } from '../../helpers/secret-scan.js';
import { server } from '../../helpers/server.js';

describe("the suite's scan of logged lines", () => {
  it('reads the debug lines of every test client', async () => {
    server.use(
      tokenHandler(),
      http.get(`${BASE}/v2/x`, () => HttpResponse.json({})),
    );
    await testClient().request({ method: 'GET', path: '/v2/x' });
    // The token request's attempt, the call's attempt, and a line for each call.
    expect(scanSuiteLines()).toBe(4);
  });

  it('fails on a line that holds a canary in any form', () => {
    suiteLogger.debug(`echo ${btoa(CANARY.clientSecret)}`);
    expect(() => scanSuiteLines()).toThrow(/a logged line holds a secret/);
  });
});
