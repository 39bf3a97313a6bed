/** zod issues as the SDK's `ValidationIssue`s: readable English, paths joined with `.`, echoes cut. */
import type * as z from 'zod/mini';
import type { ValidationIssue } from './errors.js';

const UNLOCALIZED = 'Invalid input';

/** Readable English for a zod issue (zod/mini ships no locale, so its own text is only "Invalid input"). */
function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  // Optional fields never fail when absent, so an issue on `undefined` is a missing required field.
  if (valueAt(input, issue.path) === undefined && issue.code !== 'unrecognized_keys') return 'is required';
  if (issue.message !== UNLOCALIZED) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'too_small':
      return issue.origin === 'array'
        ? `must have at least ${issue.minimum} item(s)`
        : `must be ≥ ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'array'
        ? `must have at most ${issue.maximum} item(s)`
        : `must be ≤ ${issue.maximum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    case 'invalid_union':
      return 'does not match any allowed form';
    default:
      return 'is invalid';
  }
}

/** Longest part of an input echoed in an error (a 5 MB key must not make a 5 MB message). */
const ECHO_LIMIT = 40;
export const clip = (text: string, limit = ECHO_LIMIT) =>
  text.length > limit ? `${text.slice(0, limit)}…` : text;

export const joinPath = (parts: ReadonlyArray<PropertyKey>) =>
  parts
    .map((part) => clip(String(part)))
    .filter((part) => part !== '')
    .join('.');

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) value = (value as Record<PropertyKey, unknown> | null | undefined)?.[key];
  return value;
}

export function toIssues(issues: readonly z.core.$ZodIssue[], input: unknown): ValidationIssue[] {
  return issues.flatMap((issue) =>
    // One issue per unknown key, so each typo is named where it is.
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          path: joinPath([...issue.path, key]),
          message: 'is not a known parameter',
        }))
      : [{ path: joinPath(issue.path), message: describeIssue(issue, input) }],
  );
}
