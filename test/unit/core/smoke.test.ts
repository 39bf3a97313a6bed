import { HttpResponse, http } from 'msw';
import { expect, it } from 'vitest';
import { BASE, testClient, tokenHandler } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';

it('sends a v2 request with the OAuth token and resolves to the JSON body', async () => {
  let auth: string | null = null;
  server.use(
    tokenHandler(),
    http.get(`${BASE}/v2/calls/recent`, ({ request }) => {
      auth = request.headers.get('authorization');
      return HttpResponse.json({ status: 'success', data: { calls: [] } });
    }),
  );
  const body = await testClient().request({ method: 'GET', path: '/v2/calls/recent' });
  expect(body).toEqual({ status: 'success', data: { calls: [] } });
  expect(auth).toBe('Bearer at_CANARY_TOKEN_5d41e8');
});
