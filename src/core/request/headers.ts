/** Lower-cased copy of `base` plus the extra headers; `authorization` is never taken from the caller. */
export function mergeHeaders(
  base: Record<string, string>,
  ...extras: Array<Record<string, string> | undefined>
): Record<string, string> {
  const merged = { ...base };
  for (const extra of extras) {
    for (const name in extra) {
      const lower = name.toLowerCase();
      if (lower !== 'authorization') merged[lower] = extra[name] as string;
    }
  }
  return merged;
}
