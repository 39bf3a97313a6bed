/**
 * Shrinks a screenshot PNG (8-bit RGB or RGBA, as Chromium writes them) to an 8-bit palette PNG of
 * its 256 most used colours, every other pixel taking the nearest of them. Screenshots of the
 * console are flat colours and anti-aliased text: the loss is invisible and the file about half.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { crc32, deflateSync, inflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

/** The image's pixels as 0xRRGGBB, undoing PNG's per-row filters. */
function pixels(png: Buffer): { width: number; height: number; rgb: Uint32Array } {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const [depth, colour] = [png[24], png[25]];
  if (depth !== 8 || (colour !== 2 && colour !== 6)) throw new Error('only 8-bit RGB(A) PNGs');
  const channels = colour === 6 ? 4 : 3;
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const rows = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x] ?? 0;
      const left = x >= channels ? (rows[y * stride + x - channels] ?? 0) : 0;
      const up = y > 0 ? (rows[(y - 1) * stride + x] ?? 0) : 0;
      const corner = x >= channels && y > 0 ? (rows[(y - 1) * stride + x - channels] ?? 0) : 0;
      const paeth = () => {
        const p = left + up - corner;
        const [a, b, c] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - corner)];
        return a <= b && a <= c ? left : b <= c ? up : corner;
      };
      const predicted = [0, left, up, (left + up) >> 1, 0][filter ?? 0] ?? 0;
      rows[y * stride + x] = (value + (filter === 4 ? paeth() : predicted)) & 0xff;
    }
  }
  const rgb = new Uint32Array(width * height);
  for (let i = 0; i < rgb.length; i++) {
    const at = i * channels;
    rgb[i] = ((rows[at] ?? 0) << 16) | ((rows[at + 1] ?? 0) << 8) | (rows[at + 2] ?? 0);
  }
  return { width, height, rgb };
}

/** Rewrites `file` as a palette PNG; answers the sizes before and after. */
export function toPalettePng(file: string): { before: number; after: number } {
  const png = readFileSync(file);
  const { width, height, rgb } = pixels(png);
  const counts = new Map<number, number>();
  for (const colour of rgb) counts.set(colour, (counts.get(colour) ?? 0) + 1);
  const palette = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 256)
    .map(([colour]) => colour);
  const index = new Map<number, number>();
  const nearest = (colour: number) => {
    let best = 0;
    let bestDistance = Number.POSITIVE_INFINITY;
    palette.forEach((candidate, i) => {
      const dr = ((candidate >> 16) & 0xff) - ((colour >> 16) & 0xff);
      const dg = ((candidate >> 8) & 0xff) - ((colour >> 8) & 0xff);
      const db = (candidate & 0xff) - (colour & 0xff);
      const distance = dr * dr + dg * dg + db * db;
      if (distance < bestDistance) [best, bestDistance] = [i, distance];
    });
    return best;
  };
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const colour = rgb[y * width + x] ?? 0;
      const chosen = index.get(colour) ?? nearest(colour);
      index.set(colour, chosen);
      raw[y * (width + 1) + 1 + x] = chosen;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width);
  header.writeUInt32BE(height, 4);
  header.set([8, 3, 0, 0, 0], 8);
  const plte = Buffer.alloc(palette.length * 3);
  for (const [i, colour] of palette.entries()) {
    plte.set([(colour >> 16) & 0xff, (colour >> 8) & 0xff, colour & 0xff], i * 3);
  }
  const out = Buffer.concat([
    png.subarray(0, 8),
    chunk('IHDR', header),
    chunk('PLTE', plte),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  writeFileSync(file, out);
  return { before: png.length, after: out.length };
}
