import type { HandleResult } from './receiver.js';

/** What an adapter answers: `handle()`'s result, or its own refusal before `handle()`. */
export interface Answer {
  status: number;
  reason?: HandleResult['reason'] | 'payload_too_large' | 'method_not_allowed';
}

/**
 * The reason a non-2xx answer names in its body, `{ "error": "<reason>" }` (API.md, Webhooks), so a
 * delivery log shows why; a 2xx has none. `handler_error` is named `handler_failed` there, as in
 * the delivery's span.
 */
export function answerReason({ status, reason }: Answer): string | undefined {
  if (status < 300) return undefined;
  return reason === 'handler_error' ? 'handler_failed' : reason;
}

/** The JSON body of a non-2xx answer, `undefined` for a 2xx. */
export function answerBody(answer: Answer): string | undefined {
  const reason = answerReason(answer);
  return reason === undefined ? undefined : JSON.stringify({ error: reason });
}
