/**
 * /platform/art/{name}.svg: tile art of a game or provider, so the catalogue's image_url never
 * points outside the site. A drawn picture (server/modules/games/art, issue 15) is served when
 * there is one; any other name (a loyalty picture, a game an operator added) gets one generated
 * from the name: the same name always gives the same picture.
 * /platform/avatar/{name}.svg: a round portrait the same way, for loyalty characters.
 */
import { Hono } from 'hono';
import { drawnArt } from '../modules/games';
import type { AppEnv } from './app-env';
import { IMMUTABLE_CACHE } from './static-assets';

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const WIDTH = 288;
const HEIGHT = 192;

/** FNV-1a, 32 bits: the tiles' hash, so a tile and its catalogue image share colours. */
function hash(text: string): number {
  let value = 2166136261;
  for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 16777619);
  return value >>> 0;
}

function initials(sysname: string): string {
  return sysname
    .split('-')
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0] ?? '')
    .join('')
    .toUpperCase();
}

/** A small pattern of dots or diamonds placed by later bits of the hash. */
function pattern(seed: number): string {
  const marks: string[] = [];
  let state = seed || 1;
  for (let i = 0; i < 7; i++) {
    // xorshift32: a fixed sequence from the seed, so the pattern is part of the name's picture.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const x = (state >>> 0) % WIDTH;
    const y = ((state >>> 0) >> 9) % HEIGHT;
    const size = 4 + ((state >>> 0) % 9);
    marks.push(
      seed % 2 === 0
        ? `<circle cx="${x}" cy="${y}" r="${size}"/>`
        : `<rect x="${x}" y="${y}" width="${size * 2}" height="${size * 2}" transform="rotate(45 ${x} ${y})"/>`,
    );
  }
  return `<g fill="#fff" opacity=".14">${marks.join('')}</g>`;
}

export function gameArtSvg(sysname: string): string {
  const seed = hash(sysname);
  const hueA = seed % 360;
  const hueB = (hueA + 40 + ((seed >> 8) % 120)) % 360;
  const shape = (seed >> 16) % 3;
  const id = `g${seed.toString(36)}`;
  const shapes = [
    '<circle cx="220" cy="40" r="70" fill="#fff" opacity=".12"/>',
    '<rect x="170" y="-20" width="140" height="140" rx="28" transform="rotate(20 240 50)" fill="#fff" opacity=".12"/>',
    '<path d="M0 150 Q 144 60 288 150 V192 H0z" fill="#fff" opacity=".12"/>',
  ];
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${sysname}">` +
    `<defs><linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hueA} 80% 45%)"/><stop offset="1" stop-color="hsl(${hueB} 75% 30%)"/></linearGradient></defs>` +
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="url(#${id})"/>${shapes[shape]}${pattern(seed)}` +
    `<text x="24" y="120" font-family="system-ui, sans-serif" font-weight="900" font-size="72" fill="#fff" opacity=".9">${initials(sysname)}</text></svg>`
  );
}

/** A square portrait with the name's initial, in the colours its tile would have. */
export function avatarArtSvg(sysname: string): string {
  const seed = hash(sysname);
  const hueA = seed % 360;
  const hueB = (hueA + 60 + ((seed >> 8) % 90)) % 360;
  const id = `a${seed.toString(36)}`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96" width="96" height="96" role="img" aria-label="${sysname}">` +
    `<defs><linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hueA} 80% 50%)"/><stop offset="1" stop-color="hsl(${hueB} 75% 30%)"/></linearGradient></defs>` +
    `<rect width="96" height="96" fill="url(#${id})"/><circle cx="74" cy="18" r="30" fill="#fff" opacity=".14"/>` +
    `<text x="48" y="64" text-anchor="middle" font-family="system-ui, sans-serif" font-weight="900" font-size="46" fill="#fff">${(sysname[0] ?? '').toUpperCase()}</text></svg>`
  );
}

/** Serves `{name}.svg` drawn by `draw`; the name is checked against NAME, so it needs no escaping. */
function svgRoutes(draw: (name: string) => { svg: string; version?: string }) {
  const routes = new Hono<AppEnv>();
  routes.get('/:file', (c) => {
    const file = c.req.param('file');
    const name = file.endsWith('.svg') ? file.slice(0, -'.svg'.length) : '';
    if (!NAME.test(name)) return c.text('Not found', 404);
    const { svg, version } = draw(name);
    c.header('Content-Type', 'image/svg+xml; charset=utf-8');
    // An address with the picture's version never changes content (a year, like the built
    // assets); a bare name's picture may be redrawn, so it is kept for a day.
    c.header('Cache-Control', version && c.req.query('v') === version ? IMMUTABLE_CACHE : 'public, max-age=86400');
    c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    return c.body(svg);
  });
  return routes;
}

/** The drawn picture of a game or provider, or the generated one of any other name. */
export function tileArt(name: string): { svg: string; version?: string } {
  return drawnArt(name) ?? { svg: gameArtSvg(name) };
}

export const createGameArtRoutes = () => svgRoutes(tileArt);
export const createAvatarArtRoutes = () => svgRoutes((name) => ({ svg: avatarArtSvg(name) }));
