/**
 * DNS rebinding: any web page can point a name of its own (`evil.test`) at 127.0.0.1 and then call
 * the sandbox as its own origin, where the browser's same-origin rules let it read the answers. Its
 * requests still name that host in `Host`, so the sandbox answers only requests made to its own
 * names: `127.0.0.1:<port>` and `localhost:<port>`.
 */

/** The `Host` values (and so the origins) of the server at `url`: 127.0.0.1 and localhost, on its port. */
export const ownHosts = (url: URL): string[] => [url.host, `localhost:${url.port}`];

/**
 * Why a request naming `host` is refused by the server at `url`, or undefined when it names the
 * server's own host. A request without `Host` (HTTP/1.0) is let through: no browser sends one.
 */
export function foreignHost(host: string | null | undefined, url: URL): string | undefined {
  if (host == null || ownHosts(url).includes(host.toLowerCase())) return undefined;
  return 'The sandbox answers only on 127.0.0.1 or localhost';
}
