import * as z from 'zod/mini';
import { runOperation } from '../core/operation.js';
import type { RequestOptions } from '../core/transport.js';
import type { WebhookEventType } from '../webhooks/events.js';
import { APIResource } from './resource.js';

/** Body of `POST /v2/webhooks`. */
export const CreateWebhookParamsSchema = z.strictObject({
  /** Destination URL of the deliveries. */
  url: z.url({ error: 'must be an absolute URL like https://example.com/hooks' }),
  /** Event types to deliver. */
  events: z
    .array(z.string().check(z.minLength(1, { error: 'must not be empty' })))
    .check(z.minLength(1, { error: 'must name at least one event type' })),
  /** Signing secret; optional. */
  secret: z.optional(z.string()),
  /** Free text describing the webhook. */
  description: z.optional(z.string()),
});
/**
 * What `webhooks.create` needs: `url` (absolute) and `events` (at least one); `secret` and `description` optional.
 */
export interface CreateWebhookParams extends Omit<z.input<typeof CreateWebhookParamsSchema>, 'events'> {
  /** Documented types autocomplete; others are accepted, since SPEC.md says the list may not be exhaustive. */
  events: (WebhookEventType | (string & {}))[];
}

/** The `data` payload of `POST /v2/webhooks`, as returned: its shape is not documented, so it stays open. */
export const CreatedWebhookSchema = z.record(z.string(), z.unknown());
/**
 * The `data` payload `webhooks.create` resolves to, as the service returned it (shape not documented).
 * @useDeclaredType
 */
export type CreatedWebhook = z.infer<typeof CreatedWebhookSchema>;

/** Webhook registrations (v2). */
export class Webhooks extends APIResource {
  /**
   * Registers a webhook; resolves to the service's `data` payload as returned. Verify its deliveries
   * with `verifyWebhook` or `WebhookReceiver` and the same `secret`.
   * @throws {ValidationError} (a rejection, nothing sent) when `url` is not absolute or `events` is empty.
   */
  async create(params: CreateWebhookParams, options?: RequestOptions): Promise<CreatedWebhook> {
    return runOperation(
      this.transport,
      {
        method: 'POST',
        path: '/v2/webhooks',
        body: { schema: CreateWebhookParamsSchema, value: params },
        data: CreatedWebhookSchema,
        result: (data) => data,
      },
      options,
    );
  }
}
