/** zod issues as the SDK's `ValidationIssue`s: readable English, paths joined with `.`, echoes cut. */
import type * as z from 'zod/mini';
import type { ValidationIssue } from './errors.js';

const UNLOCALIZED = 'Invalid input';

/**
 * Readable English for a zod issue (zod/mini ships no locale, so its own text is only "Invalid input").
 * Only the codes the SDK's schemas produce are worded: their checks (fields.ts) carry their own
 * messages, so zod's range, enum, format and union codes never reach here.
 */
function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  // Optional fields never fail when absent, so an issue on `undefined` is a missing required field.
  // (An unknown key, whose value is defined, is worded by toIssues, the one caller.)
  if (valueAt(input, issue.path) === undefined) return 'is required';
  if (issue.message !== UNLOCALIZED) return issue.message;
  return issue.code === 'invalid_type' ? `expected ${issue.expected}` : 'is invalid';
}

/** Longest part of an input echoed in an error (a 5 MB key must not make a 5 MB message). */
const ECHO_LIMIT = 40;
export const clip = (text: string, limit = ECHO_LIMIT) =>
  text.length > limit ? `${text.slice(0, limit)}…` : text;

/** A refused string as a message quotes it: `"abc"`, or its first `limit` characters and its length. */
export const quote = (text: string, limit: number) =>
  text.length > limit
    ? `${JSON.stringify(text.slice(0, limit))}… ${text.length} characters`
    : JSON.stringify(text);

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
