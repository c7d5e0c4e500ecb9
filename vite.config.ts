import { reactRouter } from '@react-router/dev/vite';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const APP = fileURLToPath(new URL('./app/', import.meta.url));
const COMMON = fileURLToPath(new URL('./common/', import.meta.url));
/** The route modules every page loads: the root and the site layout. */
const SITE_ROUTES = ['root.tsx', 'routes/site-layout.tsx'].map((file) => APP + file);

/** Our modules (app/, common/) that the root and the site layout import statically, route modules excepted. */
function siteModules(getModuleInfo: Rollup.GetModuleInfo): Set<string> {
  const found = new Set<string>();
  const queue = [...SITE_ROUTES];
  while (queue.length) {
    const id = queue.pop()!;
    for (const imported of getModuleInfo(id)?.importedIds ?? []) {
      if (found.has(imported) || !(imported.startsWith(APP) || imported.startsWith(COMMON))) continue;
      found.add(imported);
      queue.push(imported);
    }
  }
  for (const id of found) if (id.startsWith(APP + 'routes/') || SITE_ROUTES.includes(id)) found.delete(id);
  return found;
}

/** SVG sprites stay files: a <use href> cannot point into a data: address (the slot symbols, issue 15). */
const keepSvgFiles = (file: string): boolean | undefined => (file.endsWith('.svg') ? false : undefined);

/**
 * V8's explicit compile hint (Chrome 136+) on every browser script: compile all its functions while
 * the file streams in, on a background thread, instead of each on the main thread at its first call.
 * A page's scripts run nearly whole while it hydrates, so those lazy compiles were the page's own
 * blocking time: on a phone's home page the main thread spent a median 152 ms in calls (lazy
 * compiling among it) without the hint and 99 ms with it, and Lighthouse's blocking time fell by
 * about a third on `/` and the game page (issue 12, docs/performance.md). The comment goes in once
 * the files are written, after minification (which strips comments) and Vite's own last edits;
 * other browsers read a comment.
 */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';
const compileHint: Plugin = {
  name: 'compile-hint',
  apply: 'build',
  // Once the files are written: Vite's own last step puts the preload helper before some chunks' code.
  // (The client build writes no source maps; with them, each map would be a line off.)
  writeBundle({ dir }, bundle) {
    for (const output of Object.values(bundle)) {
      if (output.type === 'chunk' && dir) writeFileSync(join(dir, output.fileName), COMPILE_HINT + output.code);
    }
  },
};

export default defineConfig(({ isSsrBuild }) => {
  let site: Set<string> | undefined;
  return {
    plugins: [reactRouter(), ...(isSsrBuild ? [] : [compileHint])],
    resolve: {
      alias: {
        '~': fileURLToPath(new URL('./app', import.meta.url)),
        '#common': fileURLToPath(new URL('./common', import.meta.url)),
      },
    },
    server: { host: '127.0.0.1' },
    build: isSsrBuild
      ? { assetsInlineLimit: keepSvgFiles }
      : {
          assetsInlineLimit: keepSvgFiles,
          rollupOptions: {
            output: {
              // Rollup gave the code shared by the root and the site layout a chunk per combination of
              // importers: thirty-odd scripts of 1–3 KB on every page, each a round trip over HTTP/1.1's
              // six connections before the page could start (issue 12). Every page loads the root and
              // the layout, so one chunk of what they import adds no code to any page.
              manualChunks(id, { getModuleInfo }) {
                site ??= siteModules(getModuleInfo);
                return site.has(id) ? 'site' : undefined;
              },
            },
          },
        },
  };
});
