import * as z from 'zod/mini';
import { paramNames, refuseNamed } from '../core/request/extra.js';
import { validateParams } from '../core/request/params.js';
import { APIPromise } from '../core/response/api-promise.js';
import { isRecord } from '../core/response/envelope.js';
import type { RequestOptions } from '../core/types.js';
import type { WebhookEventType } from '../webhooks/events.js';
import { httpUrl, notEmpty } from './fields.js';
import { APIResource } from './resource.js';

/** Body of `POST /v2/webhooks`, held equal to {@link CreateWebhookParams} by a type test. */
export const CreateWebhookParamsSchema = z.strictObject({
  url: httpUrl(),
  events: z
    .array(z.string().check(notEmpty('must not be empty')))
    .check(notEmpty('must name at least one event type')),
  secret: z.optional(z.string()),
  description: z.optional(z.string()),
});
/**
 * What `webhooks.create` needs: `url` and `events`; `secret` and `description` optional (SPEC.md,
 * Webhook (as sent at creation)). Invalid values and unknown keys reject with `ValidationError`
 * before any request.
 */
export interface CreateWebhookParams {
  /** Destination URL of the deliveries: an absolute `http:` or `https:` URL. */
  url: string;
  /**
   * Event types to deliver, at least one (`call.ended`, `voicemail.new`, …; SPEC.md, Event types).
   * Documented types autocomplete; others are accepted, since SPEC.md says the list may not be exhaustive.
   */
  events: (WebhookEventType | (string & {}))[];
  /** Signing secret of the deliveries: verify them with `verifyWebhook` or `WebhookReceiver` and the same secret. */
  secret?: string | undefined;
  /** Free text describing the webhook. */
  description?: string | undefined;
}

/**
 * A webhook as the service describes it. SPEC.md shows the fields sent at creation (`url`, `events`,
 * `secret`, `description`) but not the stored form, so every field is optional and fields the
 * service adds are kept. Typed as expected, not checked at run time (see {@link CreatedWebhook}).
 */
export interface WebhookRegistration {
  /** The webhook's id, when the service gives one. */
  id?: string;
  /** Destination URL of the deliveries. */
  url?: string;
  /** Event types delivered. */
  events?: (WebhookEventType | (string & {}))[];
  /** The signing secret, when the service shows it (one it generated, say). */
  secret?: string;
  /** The description given; `null` when none. */
  description?: string | null;
  /** Registration time, ISO 8601. */
  created_at?: string;
  /** Fields the service adds. */
  [field: string]: unknown;
}

/**
 * The `data` payload `webhooks.create` resolves to, as returned (SPEC.md does not show it): the
 * webhook under `webhook` (the envelope's resource-key convention, which the sandbox follows) or its
 * fields at the top level; `{}` for a body that is no JSON object. Not checked at run time: any 2xx
 * answer resolves (an error would invite a second registration).
 */
export interface CreatedWebhook extends WebhookRegistration {
  /** The webhook, when the service answers it under the `webhook` key (the sandbox does). */
  webhook?: WebhookRegistration;
}

/** Webhook registrations (v2). */
export class Webhooks extends APIResource {
  /**
   * Registers a webhook; resolves to the service's `data` payload as returned (`created.webhook?.id`,
   * or `created.id` when the service answers the fields at the top level). Verify its deliveries
   * with `verifyWebhook` or `WebhookReceiver` and the same `secret`. Any 2xx answer resolves, whatever
   * its body (SPEC.md does not show it): the webhook exists by then, and an error would invite a
   * second registration.
   * @throws {ValidationError} (a rejection, nothing sent) when `url` is not absolute or `events` is empty.
   */
  create(params: CreateWebhookParams, options?: RequestOptions): APIPromise<CreatedWebhook> {
    const operation = 'POST /v2/webhooks';
    const answer = async () => {
      const body = validateParams(CreateWebhookParamsSchema, params, operation);
      refuseNamed(options?.extraBody, paramNames(CreateWebhookParamsSchema), 'extraBody', operation);
      // The POST's own 2xx answer is read leniently: a body that is not JSON is no error here.
      const { data: sent, ...answered } = await this.transport
        .send({ method: 'POST', path: '/v2/webhooks', body, secrets: [body.secret], lenient: true }, options)
        .withResponse();
      const data = isRecord(sent) && isRecord(sent.data) ? sent.data : sent;
      // Not validated: a lenient zod check (z.catch per field) would cost the whole bundle 3 kB gzip.
      return { ...answered, data: isRecord(data) ? (data as CreatedWebhook) : {} };
    };
    return new APIPromise(answer());
  }
}
