import * as z from 'zod/mini';
import { isRecord } from '../core/envelope.js';
import { httpUrl, validateParams } from '../core/schema.js';
import type { RequestOptions } from '../core/transport.js';
import type { WebhookEventType } from '../webhooks/events.js';
import { APIResource } from './resource.js';

/** Body of `POST /v2/webhooks`. */
export const CreateWebhookParamsSchema = z.strictObject({
  /** Destination URL of the deliveries; an `http:` or `https:` URL. */
  url: httpUrl(),
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

/**
 * The `data` payload `webhooks.create` resolves to, as the service returned it (shape not documented):
 * the body's `data` object, else the body itself when it is an object, else `{}`.
 */
export type CreatedWebhook = Record<string, unknown>;

/** Webhook registrations (v2). */
export class Webhooks extends APIResource {
  /**
   * Registers a webhook; resolves to the service's `data` payload as returned. Verify its deliveries
   * with `verifyWebhook` or `WebhookReceiver` and the same `secret`. Any 2xx answer resolves, whatever
   * its body (SPEC.md does not show it): the webhook exists by then, and an error would invite a
   * second registration.
   * @throws {ValidationError} (a rejection, nothing sent) when `url` is not absolute or `events` is empty.
   */
  async create(params: CreateWebhookParams, options?: RequestOptions): Promise<CreatedWebhook> {
    const operation = 'POST /v2/webhooks';
    const body = validateParams(CreateWebhookParamsSchema, params, operation);
    // The POST's own 2xx answer is read leniently: a body that is not JSON is no error here.
    const answer = await this.transport.send(
      { method: 'POST', path: '/v2/webhooks', body, secrets: [body.secret], lenient: true },
      options,
    );
    const data = isRecord(answer) && isRecord(answer.data) ? answer.data : answer;
    return isRecord(data) ? data : {};
  }
}
