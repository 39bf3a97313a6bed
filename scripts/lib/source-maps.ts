/**
 * The package's source maps: the SDK's own sources only, named relative to the map, at the
 * granularity of source lines, and no source text embedded. Each map's `sources` name the
 * TypeScript the package ships in dist/src/ (the files of src/ without their comments, every line and
 * column of code in place: scripts/lib/source-text.ts), so they resolve for every build (ESM, CJS and
 * the Node build), where embedding the text would ship it once per build. The Node build and the
 * CJS build bundle ky (and the Node build zod and eventemitter3): their code maps to nothing (a
 * stack frame inside zod shows the bundled file's line, which is zod's own JavaScript), as their
 * sources are not in the package. `node --enable-source-maps` names `dist/src/…ts` lines in stack
 * traces.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { withoutComments } from './source-text.js';

interface SourceMap {
  version: number;
  file?: string;
  sources: string[];
  sourcesContent?: (string | null)[];
  names: string[];
  mappings: string;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((char, i) => [char, i]));

function decodeSegment(text: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = DIGIT.get(char);
    if (digit === undefined) throw new Error(`invalid base64 VLQ digit '${char}' in source map`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return values;
}

function encodeValue(value: number): string {
  let rest = value < 0 ? (-value << 1) | 1 : value << 1;
  let out = '';
  do {
    let digit = rest & 31;
    rest >>>= 5;
    if (rest > 0) digit |= 32;
    out += BASE64[digit];
  } while (rest > 0);
  return out;
}

/** A decoded segment with absolute values: [column] or [column, source, line, sourceColumn, name?]. */
type Segment = number[];

function decodeMappings(mappings: string): Segment[][] {
  const state = [0, 0, 0, 0, 0];
  return mappings.split(';').map((line) => {
    state[0] = 0;
    if (line === '') return [];
    return line.split(',').map((text) => {
      const relativeValues = decodeSegment(text);
      return relativeValues.map((delta, i) => {
        state[i] = (state[i] ?? 0) + delta;
        return state[i]!;
      });
    });
  });
}

function encodeMappings(lines: Segment[][]): string {
  const state = [0, 0, 0, 0, 0];
  return lines
    .map((segments) => {
      state[0] = 0;
      return segments
        .map((segment) =>
          segment
            .map((value, i) => {
              const delta = value - (state[i] ?? 0);
              state[i] = value;
              return encodeValue(delta);
            })
            .join(''),
        )
        .join(',');
    })
    .join(';');
}

/**
 * `map` with only the sources `keep` accepts: segments of the other sources become unmapped (a
 * one-field segment ends the span of the mapping before them), their sources are dropped, and
 * `sourcesContent` is left out. `names` stays as it is (esbuild lists only renamed identifiers).
 */
export function keepSources(map: SourceMap, keep: (source: string) => boolean): SourceMap {
  const sourceIndex: number[] = map.sources.map((source) => (keep(source) ? 0 : -1));
  const sources: string[] = [];
  for (const [i, source] of map.sources.entries()) {
    if (sourceIndex[i] === -1) continue;
    sourceIndex[i] = sources.length;
    sources.push(source);
  }
  const lines = decodeMappings(map.mappings).map((segments) => {
    const out: Segment[] = [];
    for (const segment of segments) {
      const [column = 0, source, line, sourceColumn, name] = segment;
      const index = source === undefined ? -1 : (sourceIndex[source] ?? -1);
      if (index === -1 || line === undefined || sourceColumn === undefined) {
        // Unmapped: only worth a segment when it ends a mapped span on this line.
        if ((out.at(-1)?.length ?? 1) > 1) out.push([column]);
        continue;
      }
      out.push(
        name === undefined ? [column, index, line, sourceColumn] : [column, index, line, sourceColumn, name],
      );
    }
    if (out.at(-1)?.length === 1) out.pop();
    return out;
  });
  const { sourcesContent: _dropped, ...rest } = map;
  return { ...rest, sources, mappings: encodeMappings(lines) };
}

/**
 * `map` at the granularity of source lines: of the segments that follow one another on a generated
 * line and map to the same source line, only the first stays (and any that carries a name). A
 * position still resolves to its file and line; its column is that of the first code of the run on
 * that source line, not of the exact expression. A map of whitespace-minified code, one generated
 * line for hundreds of source lines, shrinks to about a third.
 */
export function byLine(map: SourceMap): SourceMap {
  const lines = decodeMappings(map.mappings).map((segments) => {
    const out: Segment[] = [];
    for (const segment of segments) {
      const last = out.at(-1);
      const sameLine =
        last !== undefined && last.length > 1 && last[1] === segment[1] && last[2] === segment[2];
      if (sameLine && segment.length < 5) continue;
      out.push(segment);
    }
    return out;
  });
  return { ...map, mappings: encodeMappings(lines) };
}

/** The repository's src/ and the package's copy of it, where the maps point. */
const SOURCE_DIR = resolve('src');
const SHIPPED_SOURCE_DIR = resolve('dist/src');

/** Writes dist/src/<path> (src/<path> without comments) once per build process; returns its path. */
const shipped = new Map<string, Promise<string>>();
function shipSource(source: string): Promise<string> {
  const target = join(SHIPPED_SOURCE_DIR, relative(SOURCE_DIR, source));
  let done = shipped.get(target);
  if (done === undefined) {
    done = (async () => {
      const text = withoutComments(await readFile(source, 'utf8'), source);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, text);
      return target;
    })();
    shipped.set(target, done);
  }
  return done;
}

/** The SDK's sources a map names: not the built file itself, a dependency's or a plugin's module. */
function ownSources(map: SourceMap, file: string): string[] {
  return map.sources.filter(
    (source) => basename(source) !== basename(file) && !/node_modules|(^|[/\\])[\w-]+:/.test(source),
  );
}

/**
 * Of the `.js`/`.cjs` files under `dir` that `only` accepts, those built from `sources` alone (each
 * of their map's own sources accepted by `sources`) lose their map and its comment: they ship as
 * tsup wrote them, formatted and readable without one (and the package does not ship their
 * TypeScript). Returns their paths relative to `dir`.
 */
export async function dropMaps(
  dir: string,
  only: (path: string) => boolean,
  sources: (source: string) => boolean,
): Promise<Set<string>> {
  const dropped = new Set<string>();
  const entries = await readdir(dir, { recursive: true });
  for (const entry of entries.filter((name) => /\.c?js$/.test(name) && only(name))) {
    const file = join(dir, entry);
    const map = JSON.parse(await readFile(`${file}.map`, 'utf8')) as SourceMap;
    const own = ownSources(map, file);
    if (own.length === 0 || !own.every(sources)) continue;
    const code = await readFile(file, 'utf8');
    await writeFile(file, code.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'));
    await rm(`${file}.map`);
    dropped.add(entry);
  }
  return dropped;
}

/**
 * Every `.map` under `dir` (recursively) whose path relative to `dir` `only` accepts: sources outside
 * node_modules that are files only (see above), each source of src/ replaced by its copy in dist/src/,
 * every path relative to the map (tsup's CJS splitting pass writes absolute ones), mappings by line
 * ({@link byLine}), no `sourcesContent`.
 */
export async function ownSourceMaps(
  dir: string,
  only: (path: string) => boolean = () => true,
): Promise<void> {
  const entries = await readdir(dir, { recursive: true });
  for (const entry of entries.filter((name) => name.endsWith('.map') && only(name))) {
    const file = join(dir, entry);
    const map = JSON.parse(await readFile(file, 'utf8')) as SourceMap;
    const local = (path: string) => (isAbsolute(path) ? relative(dirname(file), path) : path);
    const own = keepSources(
      {
        ...map,
        sources: map.sources.map(local),
        ...(map.file === undefined ? {} : { file: local(map.file) }),
      },
      // Neither a dependency's file nor a module an esbuild plugin made up (`lazy-ky:ky`): no file ships.
      (source) => !/(^|[/\\])node_modules[/\\]/.test(source) && !/(^|[/\\])[\w-]+:/.test(source),
    );
    const sources = await Promise.all(
      own.sources.map(async (source) => {
        const path = resolve(dirname(file), source);
        if (!path.startsWith(SOURCE_DIR + sep)) return source;
        return relative(dirname(file), await shipSource(path))
          .split(sep)
          .join('/');
      }),
    );
    await writeFile(file, JSON.stringify(byLine({ ...own, sources })));
  }
}
