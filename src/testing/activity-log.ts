import type { ActivityRecord } from './activity.js';

const clockTime = (ms: number) => new Date(ms).toISOString().slice(11, 19);

/**
 * The CLI's line for a request (`method path status principal`) or a delivery attempt
 * (`event type → URL status (attempt n)`); call changes are not logged (their events are).
 */
export function logLine(record: ActivityRecord): string | undefined {
  const at = clockTime(record.at);
  if (record.kind === 'request') {
    return `${at} ${record.method} ${record.path} ${record.status} ${record.principal?.label ?? '-'}`;
  }
  if (record.kind === 'delivery') {
    const answer = record.noAnswer ? `no answer (${record.noAnswer.cause})` : String(record.status);
    const next = record.nextAttemptAt === null ? '' : `, re-delivery at ${clockTime(record.nextAttemptAt)}`;
    return `${at} ${record.type} → ${record.url} ${answer} (attempt ${record.attempt}${next})`;
  }
  return undefined;
}
