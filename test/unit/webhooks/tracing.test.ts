/**
 * API.md, Tracing: `WebhookReceiver({ tracer })` makes one SERVER span per delivery, named by the
 * event's type, with its id, type, status and outcome; a handler's own spans are its children.
 */
import { WebhookReceiver } from 'telephony-sdk/webhooks';
import { describe, expect, it } from 'vitest';
import { asyncContext, otel, spanTree } from '../../helpers/tracing.js';
import { body, header, incoming, NOW, SECRET } from './helpers.js';

asyncContext();

const delivery = (event: object = incoming) => {
  const raw = body(event);
  return { body: raw, headers: { 'service-signature': header(raw) } };
};

describe('WebhookReceiver({ tracer })', () => {
  it('one span per delivery: handled, duplicate, refused, handler failed', async () => {
    const { tracer, spans } = otel();
    const receiver = new WebhookReceiver({ secret: SECRET, now: NOW, tracer });
    let fail = false;
    receiver.on('call.incoming', () => {
      tracer.startSpan('notify agent').end();
      if (fail) throw new Error('handler down');
    });
    expect((await receiver.handle(delivery())).status).toBe(200);
    expect((await receiver.handle(delivery())).status).toBe(200);
    const forged = delivery();
    forged.headers['service-signature'] = header(forged.body, 'whsec_other');
    expect((await receiver.handle(forged)).status).toBe(401);
    fail = true;
    expect((await receiver.handle(delivery({ ...incoming, id: 'evt_2' }))).status).toBe(500);
    expect(spanTree(spans())).toBe(
      [
        'webhook call.incoming [SERVER] telephony.event.id=evt_1 telephony.event.type=call.incoming http.response.status_code=200 telephony.webhook.outcome=handled',
        '  notify agent [INTERNAL]',
        'webhook call.incoming [SERVER] telephony.event.id=evt_1 telephony.event.type=call.incoming http.response.status_code=200 telephony.webhook.outcome=duplicate',
        'webhook [SERVER] http.response.status_code=401 telephony.webhook.outcome=signature_mismatch',
        'webhook call.incoming [SERVER ERROR] telephony.event.id=evt_2 telephony.event.type=call.incoming http.response.status_code=500 telephony.webhook.outcome=handler_failed',
        '  notify agent [INTERNAL]',
      ].join('\n'),
    );
    expect(JSON.stringify(spans().map((span) => [span.attributes, span.events]))).not.toContain(SECRET);
  });

  it('fetchHandler deliveries are traced too', async () => {
    const { tracer, spans } = otel();
    const receiver = new WebhookReceiver({ secret: SECRET, now: NOW, tracer });
    const { body: raw, headers } = delivery();
    const response = await receiver.fetchHandler(
      new Request('https://hooks.example/telephony', { method: 'POST', body: raw, headers }),
    );
    expect(response.status).toBe(200);
    expect(spans().map((span) => [span.name, span.attributes['telephony.webhook.outcome']])).toEqual([
      ['webhook call.incoming', 'handled'],
    ]);
  });
});
