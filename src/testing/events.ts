import { type CallStatus, type CallStore, detailForm, isoTime, type StoredCall } from './calls.js';
import type { Scheduler } from './clock.js';
import type { Deliverer } from './delivery.js';
import type { Webhooks } from './webhooks.js';

/**
 * The webhook events a status change emits, in order. A call sent to voicemail is missed and leaves
 * a new voicemail message: `call.missed` and `voicemail.new` (whose payload SPEC.md does not
 * show; the sandbox sends `{ call }` like the call events).
 */
function eventTypes(call: StoredCall, previous: CallStatus | null): string[] {
  if (previous === null) return call.direction === 'inbound' ? ['call.incoming'] : [];
  if (call.status === 'answered') return [previous === 'transferring' ? 'call.transferred' : 'call.answered'];
  if (call.status === 'missed') return ['call.missed'];
  if (call.status === 'voicemail') return ['call.missed', 'voicemail.new'];
  if (call.status === 'completed' || call.status === 'ended') return ['call.ended'];
  return [];
}

/** Turns call status changes into signed webhook events and callback_url notifications. */
export class CallNotifier {
  #next = 1;

  constructor(
    private readonly clock: Scheduler,
    private readonly webhooks: Webhooks,
    private readonly deliverer: Deliverer,
    private readonly callbackSecret: string,
    private readonly calls: () => CallStore,
  ) {}

  readonly onStatus = (call: StoredCall, previous: CallStatus | null): void => {
    const data = { call: detailForm(call, this.calls().duration(call)) };
    for (const type of eventTypes(call, previous)) {
      for (const webhook of this.webhooks.registered) {
        // One event id per webhook, kept by every re-delivery of it.
        if (webhook.events.includes(type))
          this.deliverer.send(this.#event(type, data), webhook.url, webhook.secret);
      }
    }
    if (call.callbackUrl && previous !== null) {
      this.deliverer.send(this.#event('call.status_changed', data), call.callbackUrl, this.callbackSecret);
    }
  };

  #event(type: string, data: Record<string, unknown>) {
    const id = `evt_${String(this.#next++).padStart(8, '0')}`;
    return { id, type, created_at: isoTime(this.clock.now()), data };
  }
}
