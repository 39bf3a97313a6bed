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

  constructor(private readonly now: () => string) {}

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
      id: `wh_${String(this.registered.length + 1).padStart(6, '0')}`,
      url,
      events: events as string[],
      description: optionalString(body, 'description') ?? null,
      secret: given || randomSecret(),
      created_at: this.now(),
    };
    this.registered.push(webhook);
    const { secret, ...shown } = webhook;
    // A secret the client chose is never echoed; one the sandbox generated is shown once, here.
    return success({ webhook: given ? shown : { ...shown, secret } });
  }
}
