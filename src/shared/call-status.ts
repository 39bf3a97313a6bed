/** Every call status SPEC.md names (States and transitions), for the type below: nothing checks them at run time. */
export const CALL_STATUSES = [
  'initiating',
  'ringing',
  'answered',
  'missed',
  'voicemail',
  'completed',
  'transferring',
  'ended',
] as const;

/**
 * A call's status (SPEC.md, States and transitions): `initiating`, `ringing`, `answered`, `missed`,
 * `voicemail`, `completed`, `transferring` or `ended`. Typed open (`string & {}`) so a status the
 * service adds later does not break parsing; the documented values still autocomplete.
 * @useDeclaredType
 */
export type CallStatus = KnownCallStatus | (string & {});

/**
 * The call statuses SPEC.md names, closed: what a status filter (`legacyCalls.list`) takes.
 * @useDeclaredType
 */
export type KnownCallStatus = (typeof CALL_STATUSES)[number];

/**
 * The statuses after which a call changes no more: `missed`, `voicemail`, `completed` and `ended`.
 * For `calls.waitFor(callId, FINAL_CALL_STATUSES)`.
 */
export const FINAL_CALL_STATUSES = [
  'missed',
  'voicemail',
  'completed',
  'ended',
] as const satisfies readonly (typeof CALL_STATUSES)[number][];
