import type { QueryValue } from '../types.js';

/** Appends `path` to `base` keeping any path prefix of `base` (`new URL('/v2/x', base)` would drop it). */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/$/, '') + path;
}

/** `undefined`/`null` dropped, `Date` as ISO 8601, numbers and booleans as their string form. */
export function withQuery(url: string, query: Record<string, QueryValue> | undefined): string {
  if (query === undefined) return url;
  let search = '';
  for (const key in query) {
    const value = query[key];
    if (value === undefined || value === null) continue;
    const text = value instanceof Date ? value.toISOString() : String(value);
    search += `${search === '' ? '' : '&'}${encodeURIComponent(key)}=${encodeURIComponent(text)}`;
  }
  if (search === '') return url;
  return `${url}${url.includes('?') ? '&' : '?'}${search}`;
}
