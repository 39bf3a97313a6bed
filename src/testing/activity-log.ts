import type { ActivityRecord } from './activity.js';

const clockTime = (ms: number) => new Date(ms).toISOString().slice(11, 19);

/**
 * The CLI's line for a request (`method path status principal`, then `fault <id> <kind>` when an
 * injected fault hit it; `no answer` for a status when none was sent) or a delivery attempt
 * (`event type → URL status (attempt n)`); call changes are not logged (their events are).
 */
export function logLine(record: ActivityRecord): string | undefined {
  const at = clockTime(record.at);
  if (record.kind === 'request') {
    const status = record.status ?? 'no answer';
    const fault = record.fault ? ` fault ${record.fault.id} ${record.fault.kind}` : '';
    return `${at} ${record.method} ${record.path} ${status} ${record.principal?.label ?? '-'}${fault}`;
  }
  if (record.kind === 'delivery') {
    const answer = record.noAnswer ? `no answer (${record.noAnswer.cause})` : String(record.status);
    const next = record.nextAttemptAt === null ? '' : `, re-delivery at ${clockTime(record.nextAttemptAt)}`;
    return `${at} ${record.type} → ${record.url} ${answer} (attempt ${record.attempt}${next})`;
  }
  return undefined;
}
