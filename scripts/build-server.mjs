// Bundles the server entry (our code, and drizzle-orm; other packages stay in node_modules) next
// to the React Router server build, so production runs plain JavaScript.
//
// drizzle-orm is bundled because loading it from node_modules costs ~150 MB of heap at start:
// its 450 modules each make Node look up their package scope, and its package.json (180 KB of
// exports) is parsed again for each (issue 12, idle memory). Bundled, it is one module.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const BUNDLED_PACKAGES = new Set(['drizzle-orm']);
const { dependencies } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// Every other dependency, and its subpaths, stays external.
const external = Object.keys(dependencies)
  .filter((name) => !BUNDLED_PACKAGES.has(name))
  .flatMap((name) => [name, `${name}/*`]);

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  external,
  sourcemap: true,
  logLevel: 'warning',
};

await build({ ...common, entryPoints: ['server/main.ts'], outfile: 'build/server/main.js' });
// main.ts runs it before it opens the embedded database: the boot's memory ends with that process.
await build({ ...common, entryPoints: ['server/prepare-database.ts'], outfile: 'build/server/prepare-database.js' });
// The odds feed simulator runs as its own process beside the site (issue 14).
await build({ ...common, entryPoints: ['server/feed-simulator/main.ts'], outfile: 'build/feed-simulator/main.js' });
// The demo game aggregator runs as its own process beside the site (issue 15), with its game
// client (browser script and style) next to it; esbuild stays external: it bundles the client
// only when the process runs from source.
await build({
  ...common,
  external: [...external, 'esbuild'],
  entryPoints: ['server/game-aggregator/main.ts'],
  outfile: 'build/game-aggregator/main.js',
});
await build({
  entryPoints: ['server/game-aggregator/client/main.ts'],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  logLevel: 'warning',
  outfile: 'build/game-aggregator/client.js',
});
mkdirSync('build/game-aggregator', { recursive: true });
// The shell's styles, then the table titles' (tables/views/tables.css).
writeFileSync(
  'build/game-aggregator/client.css',
  `${readFileSync('server/game-aggregator/client/client.css', 'utf8')}\n${readFileSync('server/game-aggregator/tables/views/tables.css', 'utf8')}`,
);
