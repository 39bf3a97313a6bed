import { invalid } from '../errors.js';
import type { QueryValue } from '../types.js';
import { clip } from '../zod-issues.js';

/** Appends `path` to `base` keeping any path prefix of `base` (`new URL('/v2/x', base)` would drop it). */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/$/, '') + path;
}

/**
 * `undefined`/`null` dropped, `Date` as ISO 8601, numbers and booleans as their string form. Anything
 * else (an object, a symbol, an invalid date) is a `ValidationError` naming `query.<key>`.
 */
export function withQuery(url: string, query: Record<string, QueryValue> | undefined): string {
  if (query === undefined) return url;
  if (typeof query !== 'object' || query === null)
    throw invalid('Invalid query', 'query', 'must be an object');
  let search = '';
  for (const key in query) {
    const value = query[key];
    if (value === undefined || value === null) continue;
    const text = queryText(value, key);
    search += `${search === '' ? '' : '&'}${encodeURIComponent(key)}=${encodeURIComponent(text)}`;
  }
  if (search === '') return url;
  return `${url}${url.includes('?') ? '&' : '?'}${search}`;
}

function queryText(value: unknown, key: string): string {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  const path = `query.${clip(key, 100)}`;
  throw invalid(`Invalid ${path}`, path, 'must be a string, number, boolean, valid Date, null or undefined');
}
