/** `process.emitWarning` where there is one (Node, Bun, Deno); nothing in browsers and Workers. */
export function warn(message: string): void {
  (globalThis as { process?: { emitWarning?: (warning: string) => void } }).process?.emitWarning?.(message);
}
