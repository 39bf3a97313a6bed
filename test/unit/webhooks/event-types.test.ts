/**
 * Every event type SPEC.md lists narrows `data` by `type` (issue 12). The type-level assertions below
 * (`expectTypeOf`, `@ts-expect-error`) are checked by compiling this very file in the last test, so
 * `npx vitest run` fails on them too, not only `npm run typecheck`; the same compilation checks that
 * each event the sandbox sends is assignable, field by field, to its declared type.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createSandbox } from 'telephony-sdk/testing';
import {
  type CallEventData,
  type CallIncomingEvent,
  type CallStatus,
  type CallStatusChangedEvent,
  type OpenEventData,
  type OtherWebhookEvent,
  type UnknownWebhookEvent,
  verifyWebhook,
  type WebhookCall,
  type WebhookEvent,
  type WebhookEventOf,
  WebhookReceiver,
} from 'telephony-sdk/webhooks';
import ts from 'typescript';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { compileVirtualFiles, root } from '../../helpers/compile.js';
import { body, header, incoming, NOW, SECRET } from './helpers.js';

const CALL_EVENTS = [
  'call.incoming',
  'call.answered',
  'call.missed',
  'call.ended',
  'call.transferred',
  'voicemail.new',
] as const;

const verify = (event: object) => {
  const raw = body(event);
  return verifyWebhook(raw, header(raw), SECRET, { now: NOW });
};

/** What a handler reads from an event, by its type: compiles only if `data` narrows. */
function summary(event: WebhookEvent): string {
  switch (event.type) {
    case 'call.incoming':
      expectTypeOf(event.data.call.status).toEqualTypeOf<'ringing'>();
      expectTypeOf(event.data.call.from.contact_id).toEqualTypeOf<string | null | undefined>();
      // @ts-expect-error a ringing call's status is never 'ended'
      if (event.data.call.status === 'ended') return 'impossible';
      return `ringing ${event.data.call.from.number} -> ${event.data.call.to.user_id}`;
    case 'call.answered':
    case 'call.missed':
    case 'call.ended':
    case 'call.transferred':
    case 'voicemail.new':
      expectTypeOf(event.data).toEqualTypeOf<CallEventData>();
      expectTypeOf(event.data.call.status).toEqualTypeOf<CallStatus>();
      expectTypeOf(event.data.call.duration).toEqualTypeOf<number | undefined>();
      // @ts-expect-error no such field on a call (a typo is caught)
      event.data.call.durations;
      // @ts-expect-error the payload is { call }, not the call itself
      event.data.id;
      return `${event.type} ${event.data.call.id} ${event.data.call.status}`;
    default:
      // A documented type whose payload the spec does not show: data stays an open record, with
      // `call` typed for one that carries a call.
      expectTypeOf(event.data).toEqualTypeOf<OpenEventData>();
      expectTypeOf(event.data.call).toEqualTypeOf<WebhookCall | undefined>();
      return event.data.call?.id ?? event.type;
  }
}

describe('event types (issue 12)', () => {
  it('every call event and voicemail.new narrow to a typed data.call', async () => {
    const call = {
      ...incoming.data.call,
      status: 'completed',
      duration: 42,
      ended_at: '2025-11-13T02:14:02Z',
    };
    expect(summary(await verify(incoming))).toBe('ringing +15551234567 -> usr_1');
    for (const type of CALL_EVENTS.slice(1))
      expect(summary(await verify({ ...incoming, type, data: { call } }))).toBe(`${type} call_1 completed`);
    expect(summary(await verify({ ...incoming, type: 'contact.created', data: { contact: {} } }))).toBe(
      'contact.created',
    );
    expectTypeOf<WebhookEventOf<'call.ended'>['data']['call']>().toEqualTypeOf<WebhookCall>();
    expectTypeOf<CallIncomingEvent['data']['call']>().toExtend<WebhookCall>();
  });

  it('receiver handlers get the typed event of their type', async () => {
    const receiver = new WebhookReceiver({ secret: SECRET, now: NOW });
    const seen: string[] = [];
    receiver.on('call.ended', (event) => {
      expectTypeOf(event.data.call.to).toEqualTypeOf<WebhookCall['to']>();
      seen.push(event.data.call.to.number);
    });
    receiver.on('voicemail.new', (event) => {
      seen.push(event.data.call.id);
    });
    for (const type of ['call.ended', 'voicemail.new']) {
      const raw = body({ ...incoming, id: type, type });
      await receiver.handle({ body: raw, headers: { 'service-signature': header(raw) } });
    }
    expect(seen).toEqual(['+15557654321', 'call_1']);
  });

  it('receiver.on takes any event type: call.status_changed and newer types get data.call typed', async () => {
    const receiver = new WebhookReceiver({ secret: SECRET, now: NOW });
    const seen: string[] = [];
    receiver.on('call.status_changed', (event) => {
      expectTypeOf(event).toEqualTypeOf<CallStatusChangedEvent>();
      seen.push(`changed ${event.data.call.status}`);
    });
    receiver.on('call.recorded', (event) => {
      expectTypeOf(event).toEqualTypeOf<OtherWebhookEvent<'call.recorded'>>();
      expectTypeOf(event.data.call).toEqualTypeOf<WebhookCall | undefined>();
      seen.push(`recorded ${event.data.call?.id}`);
    });
    receiver.on('*', (event) => {
      // Narrowed by `type`, no cast: the catch-all knows call.status_changed too.
      if (event.type === 'call.status_changed') {
        expectTypeOf(event).toEqualTypeOf<CallStatusChangedEvent>();
        seen.push(`* ${event.data.call.id}`);
      }
    });
    // @ts-expect-error an observability event's handler gets its info, not an event
    receiver.on('handler_error', (info: { data: unknown }) => info);
    for (const type of ['call.status_changed', 'call.recorded']) {
      const raw = body({
        ...incoming,
        id: type,
        type,
        data: { call: { ...incoming.data.call, status: 'answered' } },
      });
      expect(
        (await receiver.handle({ body: raw, headers: { 'service-signature': header(raw) } })).status,
      ).toBe(200);
    }
    expect(seen.sort()).toEqual(['* call_1', 'changed answered', 'recorded call_1']);
  });

  it('an event of a type this version does not know still verifies, reached as UnknownWebhookEvent', async () => {
    const event = await verify({ ...incoming, type: 'system.alert', data: { level: 'warning' } });
    expect((event as UnknownWebhookEvent).data).toEqual({ level: 'warning' });
    expect(summary(event)).toBe('system.alert');
  });

  it('this file compiles, and every event the sandbox sends has its declared shape', async () => {
    const bodies = await sandboxEvents();
    expect(Object.keys(bodies).sort()).toEqual([...CALL_EVENTS].sort());
    const probe = `${root}test/unit/webhooks/sandbox-events-probe.ts`;
    const lines = Object.entries(bodies).flatMap(([type, events]) =>
      events.map(
        (text, n) => `export const e${n}_${type.replace('.', '_')}: WebhookEventOf<'${type}'> = ${text};`,
      ),
    );
    const self = fileURLToPath(import.meta.url);
    const program = compileVirtualFiles(
      new Map([
        [self, readFileSync(self, 'utf8')],
        [probe, `import type { WebhookEventOf } from 'telephony-sdk/webhooks';\n${lines.join('\n')}\n`],
      ]),
    );
    const errors = [self, probe].flatMap((file) =>
      ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => {
        const where =
          d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
        return `${d.file?.fileName.slice(root.length)}:${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      }),
    );
    expect(errors).toEqual([]);
  }, 60_000);
});

/** Every event body the sandbox sends, by type: calls driven through each transition it has. */
async function sandboxEvents(): Promise<Record<string, string[]>> {
  const sandbox = createSandbox({ deliveryFetch: async () => new Response(null, { status: 200 }) });
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: sandbox.credentials.clientId,
    client_secret: sandbox.credentials.clientSecret,
  });
  const token = (await (
    await sandbox.fetch('http://sandbox.test/v2/oauth/token', { method: 'POST', body: form })
  ).json()) as {
    access_token: string;
  };
  const send = async (method: string, path: string, json: unknown) => {
    const response = await sandbox.fetch(`http://sandbox.test${path}`, {
      method,
      headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    return ((await response.json()) as { data: { call: { id: string } } }).data;
  };
  await send('POST', '/v2/webhooks', { url: 'http://127.0.0.1:9/hooks', events: [...CALL_EVENTS] });
  // Inbound, with and without contact and user: answered, transferred, ended.
  const known = sandbox.simulateIncomingCall({
    from: '+15551230000',
    contactId: 'ct_1',
    userId: 'usr_1',
    fromName: 'Ada',
  });
  sandbox.answerCall(known.id);
  await send('POST', `/v2/calls/${known.id}/transfer`, { to: 'usr_2' });
  await sandbox.advance(5_000);
  await fetchDelete(sandbox, token.access_token, known.id);
  sandbox.missCall(sandbox.simulateIncomingCall({ from: '+15551230001' }).id);
  sandbox.voicemailCall(sandbox.simulateIncomingCall({ from: '+15551230002', customData: { crm: 1 } }).id);
  // Outbound: answered and completed on the clock.
  await send('POST', '/v2/calls', { to: '+15551230003', custom_data: { order: 7 } });
  await sandbox.advance(60_000);
  await sandbox.idle();
  const bodies: Record<string, string[]> = {};
  for (const { event, body } of sandbox.deliveries)
    bodies[event.type] = [...(bodies[event.type] ?? []), body];
  sandbox.close();
  return bodies;
}

async function fetchDelete(sandbox: ReturnType<typeof createSandbox>, token: string, id: string) {
  await sandbox.fetch(`http://sandbox.test/v2/calls/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
}
