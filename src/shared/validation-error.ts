import { TelephonyError } from './telephony-error.js';

/** One problem found in a value: where, and what is wrong. */
export interface ValidationIssue {
  /** Dotted path of the offending field (`to`, `from.number`, `events.0`), `''` for the whole value. */
  path: string;
  /** What is wrong with it (`must be an e-mail address`, `missing or wrong type`). */
  message: string;
}

/**
 * Bad input caught before any request was sent (params that break SPEC.md's types, enums, ranges or
 * required fields; unknown keys), a client misconfiguration (thrown by the constructor), or a bad
 * argument to a `telephony-sdk/webhooks` function (its `path` names the argument). Resource
 * methods reject with it; they never throw synchronously.
 */
export class ValidationError extends TelephonyError {
  override readonly name: string = 'ValidationError';
  /** Every problem found, each with the dotted `path` of the field and a `message`. */
  declare readonly issues: ValidationIssue[];

  constructor(message: string, issues: ValidationIssue[]) {
    super(message);
    this.issues = issues;
  }
}
