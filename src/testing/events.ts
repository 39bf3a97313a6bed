import { type CallStatus, type CallStore, detailForm, isoTime, type StoredCall } from './calls.js';
import type { Scheduler } from './clock.js';
import type { Deliverer } from './delivery.js';
import type { Webhooks } from './webhooks.js';

/** The webhook event a status change emits, if any. */
function eventType(call: StoredCall, previous: CallStatus | null): string | undefined {
  if (previous === null) return call.direction === 'inbound' ? 'call.incoming' : undefined;
  if (call.status === 'answered') return previous === 'transferring' ? 'call.transferred' : 'call.answered';
  if (call.status === 'missed' || call.status === 'voicemail') return 'call.missed';
  if (call.status === 'completed' || call.status === 'ended') return 'call.ended';
  return undefined;
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
    const type = eventType(call, previous);
    if (type) {
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
