/**
 * The `custom_data` key under which `calls.create` stores its `idempotencyKey` (documented: a call's
 * detail shows it), and which the caller's own `custom_data` may therefore not use. A file of its own:
 * the look-up (calls-lookup.ts, loaded by `import()`) reads it without loading the schemas.
 */
export const IDEMPOTENCY_FIELD = 'telephony_sdk_idempotency_key';
