/**
 * The SDK's own response check for a page of `GET /v2/calls/recent`, loaded from src/ (tsx runs
 * TypeScript), since schemas are internal and not exported from dist/. It runs exactly what
 * `listPages` runs per page: `parseResponse` (the compiled guard of src/core/response/guard.ts) over
 * `z.array(CallSchema)` for `data.calls`, then over `OffsetPaginationSchema` for `data.pagination`.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as z from 'zod/mini';

const src = (file: string) => fileURLToPath(new URL(`../src/${file}`, import.meta.url));
const OPERATION = 'GET /v2/calls/recent';

type AnySchema = z.core.$ZodType;
type ParseResponse = (schema: AnySchema, value: unknown, operation: string, prefix?: string) => unknown;

export async function loadSdkPageValidator(): Promise<
  { name: string; run: (data: unknown) => unknown } | undefined
> {
  const files = ['core/response/guard.ts', 'core/response/pagination.ts', 'resources/calls-schemas.ts'].map(
    src,
  );
  if (!files.every(existsSync)) {
    return undefined;
  }
  const { parseResponse } = (await import(src('core/response/guard.ts'))) as {
    parseResponse: ParseResponse;
  };
  const { OffsetPaginationSchema } = (await import(src('core/response/pagination.ts'))) as {
    OffsetPaginationSchema: AnySchema;
  };
  const { CallSchema } = (await import(src('resources/calls-schemas.ts'))) as {
    CallSchema: AnySchema;
  };
  const zm = await import('zod/mini');
  const calls = zm.array(CallSchema);
  return {
    name: 'telephony-sdk parseResponse (src/core/response/guard.ts, CallSchema)',
    run: (data) => {
      const page = data as { calls: unknown; pagination: unknown };
      parseResponse(calls, page.calls, OPERATION, 'data.calls');
      parseResponse(OffsetPaginationSchema, page.pagination, OPERATION, 'data.pagination');
      return page;
    },
  };
}
