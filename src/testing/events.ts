import { detailForm } from './call-forms.js';
import { type CallStatus, type CallStore, isoTime, type StoredCall } from './calls.js';
import type { Scheduler } from './clock.js';
import type { Deliverer } from './delivery.js';
import type { StoredWebhook, Webhooks } from './webhooks.js';

/**
 * The webhook events a status change emits, in order. A call sent to voicemail is missed and leaves
 * a new voicemail message: `call.missed` and `voicemail.new` (whose payload SPEC.md does not
 * show; the sandbox sends `{ call }` like the call events). A transfer of a call never answered
 * finishes with its first answer, at the new end: `call.answered`, then `call.transferred`.
 */
function eventTypes(call: StoredCall, previous: CallStatus | null, firstAnswer: boolean): string[] {
  if (previous === null) return call.direction === 'inbound' ? ['call.incoming'] : [];
  if (call.status === 'answered') {
    const answered = firstAnswer ? ['call.answered'] : [];
    return previous === 'transferring' ? [...answered, 'call.transferred'] : answered;
  }
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

  readonly onStatus = (call: StoredCall, previous: CallStatus | null, firstAnswer: boolean): void => {
    const detail = detailForm(call, this.calls().duration(call));
    // SPEC.md lists from.contact_id and to.user_id in call.incoming's data.call: an event carries
    // them always, null while unknown (GET one call still leaves them out).
    const data = {
      call: {
        ...detail,
        from: { ...detail.from, contact_id: call.from.contact_id },
        to: { ...detail.to, user_id: call.to.user_id },
      },
    };
    for (const type of eventTypes(call, previous, firstAnswer)) {
      const subscribed = this.webhooks.registered.filter((webhook) => webhook.events.includes(type));
      if (subscribed.length === 0) continue;
      // One event, one id: every webhook gets the same event (so receivers de-duplicate by id
      // across endpoints), and every re-delivery of it keeps that id.
      const event = this.#event(type, data);
      for (const webhook of subscribed) this.deliverer.send(event, webhook.url, webhook.secret, webhook.id);
    }
    if (previous === null) return;
    // SPEC.md: the call's callback_url hears every status change; a transfer's is notified when
    // the transfer is finished — answered at its new end, or over because the call ended first.
    const urls = new Set<string>();
    if (call.callbackUrl) urls.add(call.callbackUrl);
    if (previous === 'transferring' && call.transferCallbackUrl) urls.add(call.transferCallbackUrl);
    if (urls.size === 0) return;
    const event = this.#event('call.status_changed', data);
    for (const url of urls) this.deliverer.send(event, url, this.callbackSecret);
  };

  /**
   * Sends `webhook` a `webhook.test` event (`data.webhook`: its id, URL and event types), signed
   * and re-delivered like any other: the console's "send a test event".
   */
  sendTest(webhook: StoredWebhook): string {
    const { id, url, events } = webhook;
    const event = this.#event('webhook.test', { webhook: { id, url, events } });
    this.deliverer.send(event, url, webhook.secret, id);
    return event.id;
  }

  #event(type: string, data: Record<string, unknown>) {
    const id = `evt_${String(this.#next++).padStart(8, '0')}`;
    return { id, type, created_at: isoTime(this.clock.now()), data };
  }
}
