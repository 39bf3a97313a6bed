/**
 * What an editor shows on hover. Results are named interfaces (`const call: Call`, `Page<User>`),
 * not the twenty-line structural type a `z.infer` alias expands to. The compiler prints the types
 * of a probe's variables exactly as a language service's quick info does.
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { compileVirtualFiles, root } from '../helpers/compile.js';

const probePath = `${root}test/contract/editor-probe.ts`;
const probe = `
import { TelephonyClient, type ListRecentCallsParams } from 'telephony-sdk';
import { verifyWebhook } from 'telephony-sdk/webhooks';
const client = new TelephonyClient({ accessToken: 'token' });
export const page = await client.calls.listRecent();
export const call = page.items[0];
export const detail = await client.calls.get('call_1');
export const created = await client.calls.create({ to: '+14155550123' });
export const createdTo = created.to.number;
export const ended = await client.calls.end('call_1');
export const transferred = await client.calls.transfer('call_1', { to: '+14155550199' });
export const stats = await client.stats.calls({ from: '2026-11-01', to: '2026-11-02' });
export const users = await client.users.list();
export const user = await client.users.get('usr_1');
export const deleted = await client.users.delete('usr_1');
export const params: ListRecentCallsParams = {};
export const webhook = await client.webhooks.create({ url: 'https://example.com/h', events: ['call.ended'] });
export const webhookId = webhook.webhook?.id ?? webhook.id;
export const event = await verifyWebhook('{}', 't=1,v1=00', 'whsec_x');
export const incoming = event.type === 'call.incoming' ? event : null;
export const callEnded = event.type === 'call.ended' ? event : null;
export const voicemail = event.type === 'voicemail.new' ? event.data.call : null;
`;

function printedTypes(): Record<string, string> {
  const program = compileVirtualFiles(new Map([[probePath, probe]]));
  const source = program.getSourceFile(probePath);
  if (!source) throw new Error('probe not compiled');
  const errors = ts.getPreEmitDiagnostics(program, source);
  expect(errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  const checker = program.getTypeChecker();
  const printed: Record<string, string> = {};
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      printed[declaration.name.getText(source)] = checker.typeToString(
        checker.getTypeAtLocation(declaration.name),
      );
    }
  }
  return printed;
}

describe('types as an editor shows them', () => {
  it('every result and params type prints as its name', () => {
    expect(printedTypes()).toEqual({
      client: 'TelephonyClient',
      page: 'Page<Call, OffsetPagination>',
      call: 'Call | undefined',
      detail: 'CallDetail',
      created: 'CreatedCall',
      createdTo: 'string',
      ended: 'EndedCall',
      transferred: 'TransferredCall',
      stats: 'CallStats',
      users: 'Page<User, NumberedPagination>',
      user: 'User',
      deleted: 'DeletedUser',
      params: 'ListRecentCallsParams',
      webhook: 'CreatedWebhook',
      webhookId: 'string | undefined',
      event: 'WebhookEvent',
      incoming: 'CallIncomingEvent | null',
      callEnded: 'CallEndedEvent | null',
      voicemail: 'WebhookCall | null',
    });
  }, 30_000);
});
