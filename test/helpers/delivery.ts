import { signWebhook } from 'telephony-sdk/webhooks';

/** A signed `call.incoming` delivery of event `id`, created now (so `maxEventAge` accepts it). */
export async function signedDelivery(id: string, secret: string) {
  const body = JSON.stringify({
    id,
    type: 'call.incoming',
    created_at: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    data: { call: { id: 'call_1', status: 'ringing' } },
  });
  return { body, headers: { 'service-signature': await signWebhook(body, secret) } };
}
