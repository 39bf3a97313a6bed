import { createSandbox } from 'telephony-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';

// listen() reaches node:http through process.getBuiltinModule when called, never by import or
// require, so that bundlers have nothing to resolve or warn about (test/package/webpack.test.ts).
describe('sandbox.listen() and node:http', () => {
  const saved = globalThis.process.getBuiltinModule;
  afterEach(() => {
    globalThis.process.getBuiltinModule = saved;
  });

  it('is reached only when listen() is called, through process.getBuiltinModule', async () => {
    const asked: string[] = [];
    globalThis.process.getBuiltinModule = ((id: string) => {
      asked.push(id);
      return saved(id);
    }) as typeof saved;
    const sandbox = createSandbox();
    expect(asked).toEqual([]);
    const server = await sandbox.listen();
    try {
      expect(asked).toContain('node:http');
      expect((await fetch(`${server.url}/v2/calls/recent`)).status).toBe(401);
    } finally {
      await server.close();
    }
  });

  it('rejects, naming what it needs and what to use instead, where getBuiltinModule is missing', async () => {
    // @ts-expect-error: a runtime without it (Node before 20.16, a browser's process shim)
    globalThis.process.getBuiltinModule = undefined;
    await expect(createSandbox().listen()).rejects.toThrow(
      /needs node:http, reached through process\.getBuiltinModule .*use sandbox\.fetch or mswHandlers/,
    );
  });
});
