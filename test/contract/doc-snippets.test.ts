/**
 * Every ```ts block of README.md and docs/*.md compiles against the public entries, so a snippet
 * that a rename or a changed signature broke fails CI instead of misleading a reader.
 *
 * Each block is its own module (`export {}` is appended, so top-level await works), all compiled
 * in one program with the repository's tsconfig.json. Snippets are fragments: they use names that
 * an earlier block or the prose defines (`client`, `sandbox`, `rawBody` …). PREAMBLE declares
 * each of those names with the type a reader has for it, and a block gets the declarations of the
 * names it uses without declaring them itself. A block that is not meant to compile is marked on the line right above its
 * fence with `<!-- snippet: no-check — <why> -->`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileVirtualFiles, root } from '../helpers/compile.js';

const DOCS = [
  'README.md',
  'docs/calls.md',
  'docs/core.md',
  'docs/debugging.md',
  'docs/observability.md',
  'docs/resources.md',
  'docs/sandbox.md',
  'docs/scale.md',
  'docs/webhooks.md',
];

/**
 * Names the docs use without declaring them, each with the type a reader has for it. Only these
 * are assumed: anything else a block uses it must import or declare itself.
 */
const PREAMBLE: Record<string, string> = {
  // Imported or made by an earlier block (Quickstart, the first block of a page) or the prose.
  TelephonyClient: `declare const TelephonyClient: typeof import('telephony-sdk').TelephonyClient;`,
  client: `declare const client: import('telephony-sdk').TelephonyClient;`,
  credentials: `declare const credentials: { baseUrl: string; clientId: string; clientSecret: string };`,
  createSandbox: `declare const createSandbox: typeof import('telephony-sdk/testing').createSandbox;`,
  sandbox: `declare const sandbox: import('telephony-sdk/testing').Sandbox;`,
  WebhookReceiver: `declare const WebhookReceiver: typeof import('telephony-sdk/webhooks').WebhookReceiver;`,
  // Imported by the first block of a page's section (docs/sandbox.md, Test your failure handling).
  APIConnectionError: `declare const APIConnectionError: typeof import('telephony-sdk').APIConnectionError;`,
  APITimeoutError: `declare const APITimeoutError: typeof import('telephony-sdk').APITimeoutError;`,
  vi: `declare const vi: typeof import('vitest').vi;`,
  // The reader's own: a webhook request with its exact bytes and the secret, for the webhook pages.
  request: `declare const request: Request;`,
  rawBody: `declare const rawBody: string | Uint8Array;`,
  secret: `declare const secret: string;`,
  timestamp: `declare const timestamp: number;`,
  // The reader's own tools and services: the test runner, an msw server, a CRM, a logger, metrics, Redis.
  expect: `declare const expect: typeof import('vitest').expect;`,
  server: `declare const server: import('msw/node').SetupServer;`,
  crm: `declare const crm: { ring(number: string): Promise<void> };`,
  log: `declare function log(message: string): void;`,
  metrics: `declare const metrics: { timing(name: string, ms: number, tags: Record<string, number>): void };`,
  redis: `declare const redis: {
    get(key: string): Promise<string | null>;
    set(key: string, value: string, options: { EX: number; NX?: boolean }): Promise<string | null>;
    del(key: string): Promise<number>;
    eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  };`,
};

const FENCE = /^```(ts|typescript)\s*$/;
const NO_CHECK = /^<!--\s*snippet:\s*no-check\b\s*[—:-]?\s*(.*?)\s*-->$/;

interface Snippet {
  /** `docs/core.md:3`: the file and the line of the opening fence. */
  readonly name: string;
  readonly doc: string;
  readonly fenceLine: number;
  readonly code: string;
  /** False when `<!-- snippet: no-check — why -->` is the line right above the fence. */
  readonly check: boolean;
}

/** The ```ts blocks of a Markdown text; throws on a marker that is unknown, unexplained or misplaced. */
function snippetsOf(doc: string, markdown: string): Snippet[] {
  const lines = markdown.split('\n');
  const snippets: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim().startsWith('<!-- snippet:')) {
      const marker = NO_CHECK.exec(line.trim());
      if (!marker) throw new Error(`${doc}:${i + 1}: unknown snippet marker ${line.trim()}`);
      if (!marker[1]) throw new Error(`${doc}:${i + 1}: a no-check marker must say why`);
      if (!FENCE.test(lines[i + 1] ?? ''))
        throw new Error(`${doc}:${i + 1}: marker not right above a \`\`\`ts fence`);
    }
    if (!FENCE.test(line)) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end === -1) throw new Error(`${doc}:${i + 1}: unclosed code block`);
    snippets.push({
      name: `${doc}:${i + 1}`,
      doc,
      fenceLine: i + 1,
      code: lines.slice(i + 1, end).join('\n'),
      check: !NO_CHECK.test((lines[i - 1] ?? '').trim()),
    });
    i = end;
  }
  return snippets;
}

/** Names a module declares at its top level (imports, variables, functions, classes, types). */
function declaredNames(code: string): Set<string> {
  const source = ts.createSourceFile('snippet.ts', code, ts.ScriptTarget.Latest);
  const names = new Set<string>();
  const bind = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name);
  };
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) bind(declaration.name);
    } else if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.name) names.add(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) names.add(e.name.text);
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement) ||
        ts.isImportEqualsDeclaration(statement)) &&
      statement.name
    ) {
      names.add(statement.name.text);
    }
  }
  return names;
}

interface Module {
  readonly path: string;
  readonly text: string;
  /** Lines of preamble before the block's first line. */
  readonly offset: number;
}

/**
 * The PREAMBLE names a block uses but does not declare. A property is no use (`client.request` does
 * not use `request`); a spread is (`...sandbox.credentials`).
 */
function assumedNames(code: string): string[] {
  const declared = declaredNames(code);
  return Object.keys(PREAMBLE).filter(
    (name) => !declared.has(name) && new RegExp(`(?<![\\w$])(?<!(?<!\\.)\\.)${name}(?![\\w$])`).test(code),
  );
}

function moduleOf(snippet: Snippet, index: number): Module {
  const preamble = assumedNames(snippet.code)
    .map((name) => PREAMBLE[name])
    .join('\n');
  return {
    path: `${root}test/contract/doc-snippet-${index}.ts`,
    text: `${preamble}\n${snippet.code}\nexport {};\n`,
    offset: preamble.split('\n').length,
  };
}

const snippets = DOCS.flatMap((doc) => snippetsOf(doc, readFileSync(`${root}${doc}`, 'utf8')));
const modules = new Map(snippets.map((snippet, index) => [snippet, moduleOf(snippet, index)]));
let program: ts.Program;

beforeAll(() => {
  const checked = [...modules].filter(([snippet]) => snippet.check).map(([, module]) => module);
  program = compileVirtualFiles(new Map(checked.map((module) => [module.path, module.text])));
  // One program for every block: ≈ 10 s quiet, over 30 s on a 2-core machine shared with other builds.
}, 120_000);

/** The block's diagnostics, each as `line N (file:line): message`, N counted from the block's first line. */
function diagnosticsOf(snippet: Snippet, module: Module): string[] {
  const source = program.getSourceFile(module.path);
  if (!source) throw new Error(`${snippet.name} not compiled`);
  return ts.getPreEmitDiagnostics(program, source).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (diagnostic.file !== source || diagnostic.start === undefined) return message;
    const line = source.getLineAndCharacterOfPosition(diagnostic.start).line - module.offset + 1;
    if (line < 1) return `preamble: ${message}`;
    return `line ${line} (${snippet.doc}:${snippet.fenceLine + line}): ${message}`;
  });
}

describe('documentation snippets compile against the public entries', () => {
  it.each(DOCS)('%s has ```ts blocks', (doc) => {
    expect(snippets.some((snippet) => snippet.doc === doc)).toBe(true);
  });

  it('every preamble name is assumed by a checked block', () => {
    const assumed = new Set(snippets.filter((snippet) => snippet.check).flatMap((s) => assumedNames(s.code)));
    expect(Object.keys(PREAMBLE).filter((name) => !assumed.has(name))).toEqual([]);
  });

  it('reads blocks and honours no-check markers', () => {
    const markdown = [
      '```sh',
      'npm test',
      '```',
      '<!-- snippet: no-check — shows a mistake -->',
      '```ts', // line 5
      'client.nope();',
      '```',
      '```ts', // line 8
      'const a = 1;',
      '',
      'a;',
      '```',
    ].join('\n');
    expect(snippetsOf('x.md', markdown)).toEqual([
      { name: 'x.md:5', doc: 'x.md', fenceLine: 5, code: 'client.nope();', check: false },
      { name: 'x.md:8', doc: 'x.md', fenceLine: 8, code: 'const a = 1;\n\na;', check: true },
    ]);
    expect(() => snippetsOf('x.md', '<!-- snippet: no-check -->\n```ts\n```')).toThrow('must say why');
    expect(() => snippetsOf('x.md', '<!-- snippet: no-check: why -->\n\n```ts\n```')).toThrow('right above');
    expect(() => snippetsOf('x.md', '<!-- snippet: skip -->\n```ts\n```')).toThrow('unknown snippet marker');
  });

  // A block marked no-check gets no test at all, rather than a skipped one.
  for (const [snippet, module] of [...modules].filter(([snippet]) => snippet.check)) {
    it(snippet.name, () => {
      expect(diagnosticsOf(snippet, module)).toEqual([]);
    });
  }
});

// Issue 19: what a reader copies into a fleet must survive a fault. A node-redis client without an
// 'error' listener ends the process when Redis goes away (every worker at once), and a manual-clock
// sandbox served over listen() to clients waiting on the wall clock never slides its window (429 for
// ever). Each block of the docs and each example that makes a Redis client, or serves a sandbox it
// creates, is held to that.
describe('copied snippets survive a Redis outage and a sliding window (issue 19)', () => {
  const examples = readdirSync(`${root}examples`)
    .filter((file) => file.endsWith('.ts'))
    .map((file) => ({ name: `examples/${file}`, code: readFileSync(`${root}examples/${file}`, 'utf8') }));
  const sources = [...snippets.map(({ name, code }) => ({ name, code })), ...examples];
  const REDIS_CLIENT = /\b(createClient|createCluster)\(|\bnew (Redis|Cluster)\(/;

  it('docs show both drivers, so both rules below have something to check', () => {
    expect(sources.filter(({ code }) => /\bcreateClient\(/.test(code)).length).toBeGreaterThan(0);
    expect(sources.filter(({ code }) => /\bnew Redis\(/.test(code)).length).toBeGreaterThan(0);
    expect(
      sources.filter(({ code }) => /createSandbox\(/.test(code) && /\.listen\(/.test(code)).length,
    ).toBeGreaterThan(1);
  });

  it("every Redis client a snippet makes has an 'error' listener", () => {
    const missing = sources.filter(({ code }) => REDIS_CLIENT.test(code) && !/\.on\('error',/.test(code));
    expect(missing.map(({ name }) => name)).toEqual([]);
  });

  it('every sandbox a snippet serves over listen() runs on the clock its clients wait on', () => {
    const manual = sources.filter(
      ({ code }) =>
        /createSandbox\(/.test(code) &&
        /\.listen\(/.test(code) &&
        !/mode: 'realtime'/.test(code) &&
        !/clock: sandbox\.clientClock/.test(code),
    );
    expect(manual.map(({ name }) => name)).toEqual([]);
  });
});
