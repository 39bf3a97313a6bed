/**
 * The part of msw's `http` namespace the sandbox needs. Callers pass their own `http`, so the
 * testing entry never imports msw and msw stays a dev dependency of the user's project.
 */
export interface MswHttp<Handler> {
  /** msw's `http.all(path, resolver)`: a handler for every method on `path`. */
  all(path: string, resolver: (info: { request: Request }) => Promise<Response>): Handler;
}

/** Where the sandbox is mounted in msw: the client's `baseUrl` and `baseUrlV1`. */
export interface MswMount {
  /** The client's `baseUrl`: `/v2/*` under it is served by the sandbox. */
  baseUrl: string;
  /** Defaults to `baseUrl`. */
  baseUrlV1?: string;
}

export function mswHandlers<Handler>(
  http: MswHttp<Handler>,
  mount: MswMount,
  handle: (request: Request) => Promise<Response>,
): Handler[] {
  const trim = (url: string) => url.replace(/\/+$/, '');
  // A request aborted while a fault holds it (a delay, a hang) has no one left to answer: a
  // network error, not a rejection, which msw would log as the handler's unhandled exception.
  const resolver = ({ request }: { request: Request }) =>
    handle(request).catch((error: unknown) => {
      if (request.signal.aborted) return Response.error();
      throw error;
    });
  return [
    http.all(`${trim(mount.baseUrl)}/v2/*`, resolver),
    http.all(`${trim(mount.baseUrlV1 ?? mount.baseUrl)}/v1/*`, resolver),
  ];
}
