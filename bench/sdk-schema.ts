/**
 * The SDK's own response schema for a list-form call, loaded from src/ (tsx runs TypeScript),
 * since schemas are internal and not exported from dist/. Any zod v4 schema, mini or classic,
 * parses through zod/mini's `z.parse`, so the row measures the schema design the SDK chose.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';

const callsModule = fileURLToPath(new URL('../src/resources/calls.ts', import.meta.url));

export async function loadSdkPageValidator(): Promise<
  { name: string; run: (data: unknown) => unknown } | undefined
> {
  if (!existsSync(callsModule)) return undefined;
  const module = (await import(callsModule)) as Record<string, unknown>;
  const schema = module.CallSchema;
  if (!(schema instanceof z.core.$ZodType)) return undefined;
  const page = z.looseObject({ calls: z.array(schema), pagination: z.unknown() });
  return { name: 'telephony-sdk CallSchema (src/resources/calls.ts)', run: (data) => z.parse(page, data) };
}
