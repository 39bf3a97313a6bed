import * as z from 'zod/mini';
import { runOperation } from '../core/operation.js';
import type { RequestOptions } from '../core/transport.js';
import { APIResource } from './resource.js';

/** Event types SPEC.md lists ("the list may not be exhaustive", so others are accepted too). */
export const WEBHOOK_EVENT_TYPES = [
  'call.incoming',
  'call.answered',
  'call.missed',
  'call.ended',
  'call.transferred',
  'voicemail.new',
  'voicemail.read',
  'message.new',
  'user.presence_changed',
  'contact.created',
  'contact.updated',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number] | (string & {});

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
  description: z.optional(z.string()),
});
export type CreateWebhookParams = Omit<z.input<typeof CreateWebhookParamsSchema>, 'events'> & {
  events: WebhookEventType[];
};

/** The `data` payload of `POST /v2/webhooks`, as returned: its shape is not documented, so it stays open. */
export const CreatedWebhookSchema = z.record(z.string(), z.unknown());
export type CreatedWebhook = z.infer<typeof CreatedWebhookSchema>;

/** Webhook registrations (v2). */
export class Webhooks extends APIResource {
  /** Registers a webhook; resolves to the service's `data` payload as returned. */
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
