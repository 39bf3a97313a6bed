/**
 * Source maps of the Node build (dist/node/), which bundles ky, zod and eventemitter3: kept for the
 * SDK's own sources only. The dependencies' code maps to nothing (a stack frame inside zod shows
 * the bundled file's line, which is zod's own JavaScript) and no source text is embedded — the
 * platform-neutral build's maps beside it already carry the SDK's sources, so the package does
 * not ship them twice. `node --enable-source-maps` still names `src/…ts` lines in stack traces.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative } from 'node:path';

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
 * Every `.map` under `dir` (recursively): sources outside node_modules only (see above), every
 * path relative to the map (tsup's CJS splitting pass writes absolute ones).
 */
export async function ownSourceMaps(dir: string): Promise<void> {
  const entries = await readdir(dir, { recursive: true });
  for (const entry of entries.filter((name) => name.endsWith('.map'))) {
    const file = join(dir, entry);
    const map = JSON.parse(await readFile(file, 'utf8')) as SourceMap;
    const local = (path: string) => (isAbsolute(path) ? relative(dirname(file), path) : path);
    const own = keepSources(
      {
        ...map,
        sources: map.sources.map(local),
        ...(map.file === undefined ? {} : { file: local(map.file) }),
      },
      (source) => !/(^|[/\\])node_modules[/\\]/.test(source),
    );
    await writeFile(file, JSON.stringify(own));
  }
}
