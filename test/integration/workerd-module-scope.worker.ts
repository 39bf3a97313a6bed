// The Worker of workerd-module-scope.test.ts: one client at module scope, as Workers guides write it,
// serving every request of the isolate. `/advance?ms=` moves the client's clock, so the test reaches
// a token's renewal windows without waiting for them.
import { TelephonyClient } from 'telephony-sdk';

interface Env {
  BASE_URL: string;
  CLIENT_ID: string;
  CLIENT_SECRET: string;
  TIMEOUT_MS: string;
}

let offsetMs = 0;
const clock = {
  now: () => Date.now() + offsetMs,
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};
let client: TelephonyClient | undefined;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/advance') {
      offsetMs += Number(url.searchParams.get('ms'));
      return new Response(null, { status: 204 });
    }
    client ??= new TelephonyClient({
      baseUrl: env.BASE_URL,
      clientId: env.CLIENT_ID,
      clientSecret: env.CLIENT_SECRET,
      timeout: Number(env.TIMEOUT_MS),
      maxRetries: 0,
      clock,
    });
    try {
      const page = await client.calls.listRecent({ limit: 1 });
      return Response.json({ ok: true, items: page.items.length });
    } catch (error) {
      const { name, message, cause } = error as Error;
      return Response.json({ ok: false, name, message, cause: String(cause) }, { status: 500 });
    }
  },
};
