import { createSandbox, type ListeningSandbox, type Sandbox } from 'telephony-sdk/testing';

/**
 * Sandboxes served on 127.0.0.1 for one application at a chosen plan, as the fleet tests use them:
 * `serve()` starts one, `closeAll()` (in an `afterEach`) closes every one started since.
 */
export function fleetSandboxes(credentials: { clientId: string; clientSecret: string }) {
  const opened: Array<{ sandbox: Sandbox; listening: ListeningSandbox }> = [];
  return {
    /** Keeps a sandbox the test built itself, to be closed with the others. */
    keep(sandbox: Sandbox, listening: ListeningSandbox): void {
      opened.push({ sandbox, listening });
    },
    async serve(requestsPerMinute: number, mode: 'realtime' | 'manual' = 'realtime') {
      const sandbox = createSandbox({
        clients: [{ ...credentials, plan: { requestsPerMinute } }],
        clock: { mode },
      });
      const listening = await sandbox.listen();
      opened.push({ sandbox, listening });
      const usage = () =>
        sandbox.rateReport().find((u) => u.version === 'v2' && u.id === credentials.clientId)!;
      return { sandbox, url: listening.url, usage };
    },
    async closeAll(): Promise<void> {
      for (const { sandbox, listening } of opened.splice(0)) {
        await listening.close();
        (sandbox.clock as { stop?: () => void }).stop?.();
      }
    },
  };
}
