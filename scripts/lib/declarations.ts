/**
 * The package's declarations, bundled by rollup-plugin-dts (tsup's own dts step names its shared
 * chunks `<name>-<hash>`, and a user's go-to-definition would land in a file named by a hash):
 * `<dir>/<entry>.d.cts` for each entry, holding what only that entry reaches, and one file for each
 * source module that more than one entry reaches, named after it — `src/shared/telephony-error.ts`
 * becomes `<dir>/types/shared/telephony-error.d.cts`. The names come from the source tree, so they
 * stay the same from build to build and say what each file holds (a module is named after what it
 * exports, STYLE.md §3). An entry takes a shared type through another entry that exports it where
 * one does (testing.d.cts imports `Clock` from index.d.cts): rollup-plugin-dts does so, so that a
 * user's own declarations name the type by a public path.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { type GetModuleInfo, rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';

/** Folder of dist/ that holds the declarations shared between entries. */
const SHARED_DIR = 'types';

/** What the declarations import rather than bundle: dependencies, peers, msw (the sandbox's optional mount), Node. */
function externals(): RegExp[] {
  const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, unknown>;
  const names = ['dependencies', 'peerDependencies'].flatMap((field) =>
    Object.keys((manifest[field] as Record<string, string> | undefined) ?? {}),
  );
  const escaped = [...names, 'msw'].map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  return [new RegExp(`^(${escaped.join('|')})($|/)`), /^node:/];
}

/** The entries (their module ids) that import `id`, directly or through other modules. */
function entriesReaching(id: string, entryIds: ReadonlySet<string>, moduleInfo: GetModuleInfo): string[] {
  const seen = new Set([id]);
  // The importers of every module seen so far; the graph has cycles, so each module is walked once.
  for (const module of seen) for (const importer of moduleInfo(module)?.importers ?? []) seen.add(importer);
  return [...seen].filter((module) => entryIds.has(module));
}

/**
 * Writes the declarations of `entries` (name → source file) into `dir`. `stripInternal`: what is
 * marked `@internal` (the hand-over of the fleet share to the client) stays out of the public
 * types, and with it the internal classes its signature names. rollup-plugin-dts emits declarations
 * even for code with type errors: `npm run typecheck` (run by CI right after the build) is the check.
 */
export async function buildDeclarations(dir: string, entries: Record<string, string>): Promise<void> {
  const entryIds = new Set(Object.values(entries).map((source) => resolve(source)));
  const bundle = await rollup({
    input: entries,
    plugins: [dts({ compilerOptions: { stripInternal: true } })],
    external: externals(),
    // A public type that names a type no entry exports: a consumer whose declarations must name it
    // fails with TS2742, so the build fails here instead.
    onwarn: (warning, warn) => {
      if (warning.message.includes('private shared type exports')) throw new Error(warning.message);
      warn(warning);
    },
  });
  await bundle.write({
    dir,
    entryFileNames: '[name].d.cts',
    chunkFileNames: `${SHARED_DIR}/[name].d.cts`,
    // `export { TelephonyError }`, not `export { TelephonyError as T }`: these files are read.
    minifyInternalExports: false,
    manualChunks: (id, { getModuleInfo }) =>
      entryIds.has(id) || entriesReaching(id, entryIds, getModuleInfo).length < 2
        ? undefined
        : relative('src', id).replace(/\.ts$/, ''),
  });
  await bundle.close();
}
