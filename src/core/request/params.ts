import * as z from 'zod/mini';
import { ValidationError } from '../errors.js';
import { clip, toIssues } from '../zod-issues.js';

type AnySchema = z.core.$ZodType;

/**
 * Checks request params; throws `ValidationError` naming each bad field.
 */
export function validateParams<Schema extends AnySchema>(
  schema: Schema,
  value: unknown,
  operation: string,
): z.output<Schema> {
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  const issues = toIssues(result.error.issues, value);
  const summary = issues.map((issue) => `${issue.path || '(params)'} ${issue.message}`).join('; ');
  // The operation carries the ids of the path: a long one is cut too, and so are 100 000 unknown keys.
  throw new ValidationError(`${clip(operation, 100)}: invalid params: ${clip(summary, 1000)}`, issues);
}
