import { type Principal, requireScope } from './credentials.js';
import { isLoopbackUrl } from './delivery.js';
import { invalid, readJsonObject, success } from './http.js';
import { onlyFields, optionalString } from './validate.js';

/** A registered webhook as the sandbox keeps it. */
export interface StoredWebhook {
  /** Webhook id. */
  id: string;
  /** Where deliveries are posted (loopback only in the sandbox). */
  url: string;
  /** Event types delivered to it. */
  events: string[];
  /** The description given, or `null`. */
  description: string | null;
  /** Signing secret: the one given, or a generated `whsec_…`; pass it to `verifyWebhook`/`WebhookReceiver`. */
  secret: string;
  /** Registration time, ISO 8601, on the sandbox clock. */
  created_at: string;
}

function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `whsec_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** POST /v2/webhooks and the list of registrations events are fanned out to. */
export class Webhooks {
  readonly registered: StoredWebhook[] = [];
  readonly #listeners = new Set<() => void>();
  #next = 1;

  constructor(private readonly now: () => string) {}

  /** Calls `listener` after each registration or removal; returns the function that stops it. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Removes webhook `id` (the console's delete); false when there is none. */
  remove(id: string): boolean {
    const index = this.registered.findIndex((webhook) => webhook.id === id);
    if (index < 0) return false;
    this.registered.splice(index, 1);
    this.#changed();
    return true;
  }

  #changed(): void {
    for (const listener of this.#listeners) {
      // A listener (a console tab) must never break the registration it hears of.
      try {
        listener();
      } catch {}
    }
  }

  async create(request: Request, principal: Principal) {
    requireScope(principal, 'calls:read', 'calls:write');
    const body = await readJsonObject(request);
    onlyFields(body, ['url', 'events', 'secret', 'description']);
    const url = optionalString(body, 'url');
    if (!url) throw invalid('url is required');
    if (!isLoopbackUrl(url))
      throw invalid('url must be an http(s) URL on 127.0.0.1 or localhost in the sandbox');
    const events = body.events;
    if (!Array.isArray(events) || events.length === 0) throw invalid('events must be a non-empty array');
    // Any non-empty string: SPEC.md's Events table lists "the main types; the list may not be
    // exhaustive" (webhooks also cover system alerts), so a type the sandbox never emits is kept.
    for (const event of events) {
      if (typeof event !== 'string' || event.trim() === '')
        throw invalid('events must be an array of non-empty event type strings');
    }
    const given = optionalString(body, 'secret');
    const webhook: StoredWebhook = {
      // Counted, not the list's length: a removed webhook's id is never given again.
      id: `wh_${String(this.#next++).padStart(6, '0')}`,
      url,
      events: events as string[],
      description: optionalString(body, 'description') ?? null,
      secret: given || randomSecret(),
      created_at: this.now(),
    };
    this.registered.push(webhook);
    this.#changed();
    const { secret, ...shown } = webhook;
    // A secret the client chose is never echoed; one the sandbox generated is shown once, here.
    return success({ webhook: given ? shown : { ...shown, secret } });
  }
}
