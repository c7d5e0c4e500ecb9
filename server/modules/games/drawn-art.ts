/**
 * The drawn tile art of games and providers (issue 15): one SVG scene per catalogue name in
 * art/, 288×192, with no text in it (the tile shows the name in the page's language beside it).
 * Files are read once; each address carries a hash of its file (?v=), so a browser may keep it
 * for a year and a redrawn picture still reaches it at once.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gameArtPath } from '#common/games-contract';
import { projectRoot } from '../../project-root';

export interface DrawnArt {
  svg: string;
  /** Short content hash: the `v` of the art's address. */
  version: string;
}

const ART_PATH = /^\/platform\/art\/([a-z0-9][a-z0-9-]{0,63})\.svg$/;

let drawn: ReadonlyMap<string, DrawnArt> | undefined;

function loadDrawnArt(): ReadonlyMap<string, DrawnArt> {
  const dir = join(projectRoot(), 'server', 'modules', 'games', 'art');
  const art = new Map<string, DrawnArt>();
  if (!existsSync(dir)) return art;
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.svg')) continue;
    const svg = readFileSync(join(dir, file), 'utf8').trim();
    art.set(file.slice(0, -'.svg'.length), { svg, version: createHash('sha256').update(svg).digest('hex').slice(0, 10) });
  }
  return art;
}

/** The drawn picture of a name, or undefined when none is drawn (the generated one serves then). */
export function drawnArt(name: string): DrawnArt | undefined {
  drawn ??= loadDrawnArt();
  return drawn.get(name);
}

/** A /platform/art address with its version when the picture is drawn; any other address unchanged. */
export function versionedArtUrl(address: string): string {
  const name = ART_PATH.exec(address)?.[1];
  const art = name === undefined ? undefined : drawnArt(name);
  return art ? `${address}?v=${art.version}` : address;
}

/** The tile art address of a game or provider sysname. */
export function artUrl(sysname: string): string {
  return versionedArtUrl(gameArtPath(sysname));
}
