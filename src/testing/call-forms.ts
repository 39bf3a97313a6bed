/**
 * What the sandbox answers for a call: its list, detail and creation forms (SPEC.md), built from the
 * stored call.
 */
import { isoTime, type StoredCall } from './calls.js';

/** The list form (calls/recent). */
export function listForm(call: StoredCall, duration: number) {
  return {
    /** Call id (`call_000001`, …). */
    id: call.id,
    /** `inbound` or `outbound`. */
    direction: call.direction,
    /** The caller. */
    from: { number: call.from.number, name: call.from.name },
    /** The called party. */
    to: { number: call.to.number, name: call.to.name },
    /** Talk time in seconds; 0 for a call never answered. */
    duration,
    /** Current status. */
    status: call.status,
    /** Path of the recording once a recorded call has ended, else `null`. */
    recording_url: call.record && call.endedAt !== null ? `/v2/calls/${call.id}/recording` : null,
    /** Notes (`''` for a simulated call). */
    notes: call.notes,
    /** Tags (empty for a simulated call). */
    tags: [...call.tags],
    /** Start of the call, ISO 8601 UTC on the sandbox clock. */
    timestamp: isoTime(call.startedAt),
  };
}

/** The detail form (GET one call). Links, the end time and the queue are left out while unknown: SPEC.md types them as strings and objects, never null. */
export function detailForm(call: StoredCall, duration: number) {
  const { contact_id, ...from } = call.from;
  const { user_id, ...to } = call.to;
  return {
    ...listForm(call, duration),
    /** The caller, with `contact_id` when known. */
    from:
      contact_id === null
        ? from
        : {
            ...from,
            /** The caller's contact. */
            contact_id,
          },
    /** The called party, with `user_id` when known. */
    to:
      user_id === null
        ? to
        : {
            ...to,
            /** The user the call rings for. */
            user_id,
          },
    ...(call.endedAt === null
      ? {}
      : {
          /** End of the call, ISO 8601 UTC; absent while it goes on. */
          ended_at: isoTime(call.endedAt),
        }),
    ...(call.queue === null
      ? {}
      : {
          /** The queue the call waited in. */
          queue: call.queue,
        }),
    /** `true` once the call was transferred. */
    transferred: call.transferHistory.length > 0,
    /** Every transfer, oldest first. */
    transfer_history: call.transferHistory.map((entry) => ({ ...entry })),
    /** `custom_data` given at creation (`customData` of a simulated call). */
    custom_data: call.customData,
  };
}

/** The creation form (POST /v2/calls). */
export function creationForm(call: StoredCall) {
  return {
    id: call.id,
    status: call.status,
    direction: call.direction,
    from: { number: call.from.number, name: call.from.name },
    to: { number: call.to.number, name: call.to.name },
    timestamp: isoTime(call.startedAt),
    custom_data: call.customData,
  };
}
