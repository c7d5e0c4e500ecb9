/**
 * The favicon set (issue 15: /favicon.ico was 404), drawn from the brand mark (brand.ts) in the
 * site's colours: /favicon.svg for browsers that take SVG, /favicon.ico (16, 32 and 48 pixel PNGs)
 * for those that ask for it by name, and a 180-pixel /apple-touch-icon.png, opaque on the brand
 * background because iOS paints transparency black. No image library: the mark is a disc and a
 * star, so it is rasterised here with 4 × 4 samples a pixel and written as PNG with node:zlib.
 */
import { crc32, deflateSync } from 'node:zlib';
import { BRAND_MARK, type BrandColors } from './brand';

const SAMPLES = 4;
export const ICO_SIZES = [16, 32, 48] as const;
export const TOUCH_ICON_SIZE = 180;
/** The touch icon's mark fills this share of it; the rest is brand background. */
const TOUCH_MARK_SHARE = 0.8;

type Rgb = [number, number, number];

const rgbOf = (hex: string): Rgb => {
  const value = /^#([0-9a-f]{6})$/i.exec(hex)?.[1] ?? '000000';
  return [0, 2, 4].map((at) => parseInt(value.slice(at, at + 2), 16)) as Rgb;
};

function isInStar(x: number, y: number): boolean {
  const star = BRAND_MARK.star;
  let isInside = false;
  for (let i = 0, j = star.length - 1; i < star.length; j = i++) {
    const [xi, yi] = star[i]!;
    const [xj, yj] = star[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) isInside = !isInside;
  }
  return isInside;
}

/** The mark's colour at a point of its box, or undefined outside the disc. */
function markColour(x: number, y: number, primary: Rgb, accent: Rgb): Rgb | undefined {
  const { cx, cy, r } = BRAND_MARK.disc;
  if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) return undefined;
  // The gradient runs corner to corner of the disc's bounding box, as the SVG's objectBoundingBox.
  const t = Math.min(1, Math.max(0, (x - (cx - r) + (y - (cy - r))) / (4 * r)));
  const gradient = primary.map((value, index) => value + (accent[index]! - value) * t) as Rgb;
  if (!isInStar(x, y)) return gradient;
  return gradient.map((value) => value + (255 - value) * BRAND_MARK.starOpacity) as Rgb;
}

/** RGBA pixels of the mark drawn `size` pixels wide, the mark taking `share` of it, on a background or transparent. */
export function drawMark(size: number, colors: BrandColors, share = 1, background?: string): Uint8Array {
  const [primary, accent] = [rgbOf(colors.primary), rgbOf(colors.accent)];
  const back = background === undefined ? undefined : rgbOf(background);
  const scale = BRAND_MARK.box / share / size;
  const offset = (BRAND_MARK.box / share - BRAND_MARK.box) / 2;
  const pixels = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0, 0];
      for (let sample = 0; sample < SAMPLES * SAMPLES; sample++) {
        const x = (px + ((sample % SAMPLES) + 0.5) / SAMPLES) * scale - offset;
        const y = (py + (Math.floor(sample / SAMPLES) + 0.5) / SAMPLES) * scale - offset;
        const colour = markColour(x, y, primary, accent) ?? back;
        if (!colour) continue;
        colour.forEach((value, index) => (sum[index]! += value));
        sum[3]! += 1;
      }
      const at = (py * size + px) * 4;
      // Straight (not premultiplied) alpha, as PNG wants it.
      for (let channel = 0; channel < 3; channel++) pixels[at + channel] = sum[3] ? Math.round(sum[channel]! / sum[3]) : 0;
      pixels[at + 3] = Math.round((sum[3]! * 255) / (SAMPLES * SAMPLES));
    }
  }
  return pixels;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** An 8-bit RGBA PNG of square pixels, every row unfiltered. */
export function encodePng(size: number, pixels: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rows.set(pixels.subarray(y * size * 4, (y + 1) * size * 4), y * (size * 4 + 1) + 1);
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An ICO file holding PNG images (read by every browser since 2007). */
export function encodeIco(images: ReadonlyArray<{ size: number; png: Buffer }>): Buffer {
  const header = Buffer.alloc(6 + images.length * 16);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, index) => {
    const entry = 6 + index * 16;
    header[entry] = size >= 256 ? 0 : size;
    header[entry + 1] = size >= 256 ? 0 : size;
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(32, entry + 6);
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map((image) => image.png)]);
}

export interface FaviconFiles {
  ico: Buffer;
  touchIcon: Buffer;
}

const drawn = new Map<string, FaviconFiles>();

/** The raster favicons of a colour scheme, drawn once per process (a few sites, rarely changed). */
export function faviconFiles(colors: BrandColors): FaviconFiles {
  const key = `${colors.primary}:${colors.accent}:${colors.background}`;
  let files = drawn.get(key);
  if (!files) {
    files = {
      ico: encodeIco(ICO_SIZES.map((size) => ({ size, png: encodePng(size, drawMark(size, colors)) }))),
      touchIcon: encodePng(TOUCH_ICON_SIZE, drawMark(TOUCH_ICON_SIZE, colors, TOUCH_MARK_SHARE, colors.background)),
    };
    drawn.set(key, files);
  }
  return files;
}
