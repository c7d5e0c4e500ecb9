/**
 * The game client's script and style: built by scripts/build-server.mjs next to the bundled
 * process (build/game-aggregator/client.js, client.css), or bundled from client/ at start when
 * the process runs from source (tsx: development and tests).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export async function loadClientAssets(): Promise<{ script: string; style: string }> {
  const here = dirname(fileURLToPath(import.meta.url));
  const built = join(here, 'client.js');
  if (existsSync(built)) return { script: readFileSync(built, 'utf8'), style: readFileSync(join(here, 'client.css'), 'utf8') };
  // The table titles' styles follow the shell's (tables/views/tables.css).
  const tablesStyle = readFileSync(join(here, 'tables', 'views', 'tables.css'), 'utf8');
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [join(here, 'client', 'main.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    logLevel: 'warning',
  });
  return {
    script: result.outputFiles[0]!.text,
    style: `${readFileSync(join(here, 'client', 'client.css'), 'utf8')}\n${tablesStyle}`,
  };
}
