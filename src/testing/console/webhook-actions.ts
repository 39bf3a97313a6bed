import { json, notFound, readJsonObject } from '../http.js';
import { onlyFields, optionalString, requiredString } from '../validate.js';
import type { ConsoleWorld } from './world.js';

/**
 * `redeliver` (a waiting re-delivery, now) and `resend` (any delivery, whatever became of it): to
 * registration `webhookId` when given (`null`: the callback), else to every one at `url`.
 */
export async function resend(world: ConsoleWorld, request: Request, waitingOnly: boolean): Promise<Response> {
  const body = await readJsonObject(request);
  onlyFields(body, ['eventId', 'url', 'webhookId']);
  const eventId = requiredString(body, 'eventId');
  const url = requiredString(body, 'url');
  const webhookId = body.webhookId === null ? null : optionalString(body, 'webhookId');
  if (waitingOnly && !world.deliverer.redeliverNow(eventId, url, webhookId)) {
    throw notFound(`No re-delivery of ${eventId} to ${url} is waiting`);
  }
  if (!waitingOnly && !world.deliverer.resend(eventId, url, webhookId)) {
    throw notFound(`No delivery of ${eventId} to ${url} is kept`);
  }
  return json({ redelivering: { eventId, url, ...(webhookId === undefined ? {} : { webhookId }) } }, 202);
}

export async function resendFailed(world: ConsoleWorld, request: Request): Promise<Response> {
  onlyFields(await readJsonObject(request), []);
  return json({ resent: world.deliverer.resendFailed() }, 202);
}

/** `webhooks/{id}/delete` and `webhooks/{id}/test` (a `webhook.test` event sent to it). */
export function webhookAction(world: ConsoleWorld, id: string, verb: string): Response {
  const webhook = world.webhooks.registered.find((registered) => registered.id === id);
  if (!webhook) throw notFound(`No webhook with id ${id}`);
  if (verb === 'delete') {
    world.webhooks.remove(id);
    return json({ deleted: { id, url: webhook.url } });
  }
  return json({ sent: { eventId: world.notifier.sendTest(webhook), url: webhook.url } }, 202);
}
