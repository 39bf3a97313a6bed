/**
 * What an editor shows, from the built package (dist/, through the package's `exports`, as a user's
 * editor sees it): results are named interfaces (`const call: Call`, `Page<User>`), not the
 * twenty-line structural type a `z.infer` alias expands to; a hover on a field shows its doc;
 * go-to-definition lands on a declaration named like the type.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../scripts/lib/tarball.js';
import { builtPackageService, root } from '../helpers/compile.js';

const probePath = `${root}test/contract/editor-probe.ts`;
const probe = `
import {
  TelephonyClient,
  TelephonyError,
  type CallDetail,
  type ListRecentCallsParams,
  type RequestOptions,
} from 'telephony-sdk';
import { verifyWebhook, WebhookReceiver } from 'telephony-sdk/webhooks';
const client = new TelephonyClient({ accessToken: 'token' });
export const page = await client.calls.listRecent();
export const call = page.items[0];
export const detail = await client.calls.get('call_1');
export const created = await client.calls.create({ to: '+14155550123' });
export const createdTo = created.to.number;
export const ended = await client.calls.end('call_1');
export const transferred = await client.calls.transfer('call_1', { to: '+14155550199', type: 'attended' });
export const stats = await client.stats.calls({ from: '2026-11-01', to: '2026-11-02' });
export const users = await client.users.list();
export const user = await client.users.get('usr_1');
export const deleted = await client.users.delete('usr_1');
export const params: ListRecentCallsParams = {};
export const limit: ListRecentCallsParams['limit'] = 20;
export const recent = await client.calls.listRecent({ limit: 20, offset: 0 });
export const record = await client.calls.create({ to: '+14155550123', record: true });
export const perPage = await client.users.list({ per_page: 10 });
export const groupBy = await client.stats.calls({ from: '2026-11-01', to: '2026-11-02', group_by: 'day' });
export const webhook = await client.webhooks.create({ url: 'https://example.com/h', events: ['call.ended'] });
export const legacy = await client.legacyCalls.list({ date_from: '2026-11-01', per_page: 50 });
export const invited = await client.users.create({ name: 'Ada', email: 'ada@example.com', send_welcome_email: false });
export const deactivated = await client.users.update('usr_1', { status: 'inactive' });
export const webhookId = webhook.webhook?.id ?? webhook.id;
export const event = await verifyWebhook('{}', 't=1,v1=00', 'whsec_x');
export const incoming = event.type === 'call.incoming' ? event : null;
export const callEnded = event.type === 'call.ended' ? event : null;
export const voicemail = event.type === 'voicemail.new' ? event.data.call : null;
const listed = page.items[0];
export const direction: string = listed ? listed.direction : '';
export const endedAt: string = ended.ended_at;
export const seconds = detail.duration;
export const queue = detail.queue;
export const lastLogin = user.last_login_at;
export const byDay = stats.by_day;
export const hasMore = page.pagination.has_more;
export type Declared = [RequestOptions, TelephonyError, CallDetail, WebhookReceiver];
`;

let service: ts.LanguageService;
beforeAll(() => {
  ensureBuilt();
  service = builtPackageService(new Map([[probePath, probe]]));
}, 120_000);

/** The position just after the last occurrence of `text` in the probe (inside its last word). */
const at = (text: string) => probe.lastIndexOf(text) + text.length - 1;

const dist = `${root}dist/`;

/** The package's entries, each with its own declaration file in dist/. */
const ENTRIES = ['index', 'webhooks', 'redis', 'testing'];

/** The declaration files of dist/, by their path in it. */
const declarationFiles = () =>
  readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) => /\.d\.c?ts$/.test(file));

/** Where go-to-definition on the last occurrence of `text` lands: file (in dist/), name, and its line. */
function definitionAt(text: string) {
  const [definition] = service.getDefinitionAtPosition(probePath, at(text)) ?? [];
  if (!definition) throw new Error(`no definition for ${text}`);
  const source = readFileSync(definition.fileName, 'utf8');
  const start = source.lastIndexOf('\n', definition.textSpan.start) + 1;
  return {
    file: definition.fileName.startsWith(dist) ? definition.fileName.slice(dist.length) : definition.fileName,
    name: definition.name,
    container: definition.containerName,
    line: source.slice(start, source.indexOf('\n', start)),
  };
}

function printedTypes(): Record<string, string> {
  const program = service.getProgram();
  const source = program?.getSourceFile(probePath);
  if (!program) throw new Error('no program');
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
      limit: 'number | undefined',
      recent: 'Page<Call, OffsetPagination>',
      record: 'CreatedCall',
      perPage: 'Page<User, NumberedPagination>',
      groupBy: 'CallStats',
      webhook: 'CreatedWebhook',
      legacy: 'Page<LegacyCall, NumberedPagination>',
      invited: 'User',
      deactivated: 'User',
      webhookId: 'string | undefined',
      event: 'WebhookEvent',
      incoming: 'CallIncomingEvent | null',
      callEnded: 'CallEndedEvent | null',
      voicemail: 'WebhookCall | null',
      listed: 'Call | undefined',
      direction: 'string',
      endedAt: 'string',
      seconds: 'number',
      queue: 'CallQueue | null | undefined',
      lastLogin: 'string | null | undefined',
      byDay: 'DailyCallStats[] | undefined',
      hasMore: 'boolean',
    });
  }, 60_000);

  it('a hover on a result field shows its doc, from dist/', () => {
    const doc = (text: string) =>
      ts.displayPartsToString(service.getQuickInfoAtPosition(probePath, at(text))?.documentation);
    expect(doc('detail.duration')).toMatch(/Talk time in \*\*seconds\*\*/);
    expect(doc('user.last_login_at')).toMatch(/before the first login/);
    expect(doc('stats.by_day')).toMatch(/present when `group_by` is `day`/);
    expect(doc('ended.ended_at')).toMatch(/End time/);
    expect(doc('page.pagination.has_more')).toMatch(/more items follow this page/);
  });

  it('a hover on a params field shows its doc, from dist/', () => {
    const doc = (text: string) =>
      ts.displayPartsToString(service.getQuickInfoAtPosition(probePath, at(text))?.documentation);
    expect(doc("ListRecentCallsParams['limit")).toMatch(/default 20/);
    expect(doc('listRecent({ limit')).toMatch(/default 20/);
    expect(doc('limit: 20, offset')).toMatch(/Calls skipped/);
    expect(doc("'+14155550123', record")).toMatch(/Record the call/);
  });

  it('a hover on a field of the users, legacy calls, stats, transfer and webhook params shows its doc, from dist/', () => {
    const doc = (text: string) =>
      ts.displayPartsToString(service.getQuickInfoAtPosition(probePath, at(text))?.documentation);
    expect(doc('list({ per_page')).toMatch(/Users per page: an integer 1–100, default 10/);
    expect(doc('send_welcome_email')).toMatch(/welcome e-mail; default true/);
    expect(doc("'usr_1', { status")).toMatch(/cannot be set back to `pending`/);
    expect(doc('list({ date_from')).toMatch(/Start of the period: ISO 8601/);
    expect(doc("'2026-11-02', group_by")).toMatch(/`day` adds one entry per day as `by_day`/);
    expect(doc("'+14155550199', type")).toMatch(/`blind` \(immediate; the default\) or `attended`/);
    expect(doc("'https://example.com/h', events")).toMatch(/Event types to deliver, at least one/);
    expect(doc('create({ url')).toMatch(/absolute `http:` or `https:` URL/);
  });

  it('go-to-definition lands on a declaration named like the type, in a file of dist/', () => {
    // `duration` is a list-form field, which the detail form inherits from `Call`.
    for (const [text, name, container] of [
      ['detail.duration', 'duration', 'Call'],
      ['detail.queue', 'queue', 'CallDetail'],
      ['user.last_login_at', 'last_login_at', 'User'],
      ['client.calls.get', 'get', 'Calls'],
    ] as const) {
      const definition = definitionAt(text);
      expect(definition.file).toMatch(/^[^/]+\.d\.c?ts$/);
      expect([definition.name, definition.container]).toEqual([name, container]);
    }
  });

  it('go-to-definition on a public type lands on its own declaration, in a file named like what it holds', () => {
    for (const [name, kind, file] of [
      ['RequestOptions', 'interface', 'index.d.cts'],
      ['TelephonyError', 'class', 'types/shared/telephony-error.d.cts'],
      ['CallDetail', 'interface', 'index.d.cts'],
      ['WebhookReceiver', 'class', 'types/webhooks/receiver.d.cts'],
    ] as const) {
      const definition = definitionAt(name);
      expect(definition.file).toBe(file);
      expect(definition.line).toMatch(new RegExp(`^(declare )?${kind} ${name}\\b`));
    }
  });

  it('every declaration file is named after an entry or the source module it holds: no content hash', () => {
    const files = declarationFiles();
    expect(files).toContain('types/shared/telephony-error.d.cts');
    for (const file of files) {
      const shared = /^types\/(.+)\.d\.cts$/.exec(file)?.[1];
      if (shared === undefined) expect(ENTRIES, file).toContain(file.replace(/\.d\.c?ts$/, ''));
      else expect(existsSync(`${root}src/${shared}.ts`), file).toBe(true);
    }
  });

  it('no declaration imports zod: every public type is declared by the SDK, not derived from a schema', () => {
    // A type derived from zod shows no field docs on hover and needs zod 4's types (TypeScript ≥ 5.4).
    for (const file of declarationFiles())
      expect(readFileSync(dist + file, 'utf8'), file).not.toMatch(/from ['"]zod/);
  });

  it('no internal helper appears in the declarations', () => {
    const declarations = declarationFiles()
      .map((file) => readFileSync(dist + file, 'utf8'))
      .join('\n');
    expect(declarations).toContain('interface CallDetail');
    for (const internal of [
      /\bFailSafeState\b/,
      /\bClientEmitter\b/,
      /\bMemoryState\b/,
      /ArgumentMap/,
      /\bclass Listeners\b|extends Listeners\b/,
      /Lives in/,
    ])
      expect(declarations).not.toMatch(internal);
  });
});
