/**
 * `process.emitWarning` where there is one (Node, Bun, Deno); nothing in browsers and Workers, nor in
 * Next.js's edge runtime, whose `process` throws when an unsupported member is read.
 */
export function warn(message: string): void {
  try {
    (globalThis as { process?: { emitWarning?: (warning: string) => void } }).process?.emitWarning?.(message);
  } catch {}
}
