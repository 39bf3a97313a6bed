import { HttpResponse, http } from 'msw';
import { afterEach } from 'vitest';
import { server } from '../../helpers/server.js';

/** What a handler saw of one API request (token requests excluded). */
export interface SeenRequest {
  method: string;
  path: string;
  /** Raw query string without `?`, exactly as sent. */
  query: string;
  /** Parsed JSON body, `undefined` when none. */
  body: unknown;
  authorization: string | null;
}

/** Every API request of the current test, in order. */
export const seen: SeenRequest[] = [];
afterEach(() => {
  seen.length = 0;
});

type Method = 'get' | 'post' | 'patch' | 'delete';

/** Answers `method url` with the JSON `respond` returns, recording each request. */
export function route(method: Method, url: string, respond: (request: SeenRequest) => unknown) {
  server.use(
    http[method](url, async ({ request }) => {
      const address = new URL(request.url);
      const text = await request.text();
      const entry: SeenRequest = {
        method: request.method,
        path: address.pathname,
        query: address.search.slice(1),
        body: text === '' ? undefined : JSON.parse(text),
        authorization: request.headers.get('authorization'),
      };
      seen.push(entry);
      return HttpResponse.json(respond(entry) as Record<string, unknown>);
    }),
  );
}
