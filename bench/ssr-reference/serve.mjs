/**
 * The references of bench/ssr.ts, one per process so each has its own event loop like our server:
 *   node serve.mjs hello PORT   Hono answering "Hello, world"
 *   node serve.mjs json PORT    Hono answering {"message":"Hello, world"}
 *   node serve.mjs ssr PORT     the minimal React Router SSR app of this folder (built first), served
 *                               through Hono and React Router's request handler as server/main.ts does
 */
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { createRequestHandler } from 'react-router';

const [kind, port] = process.argv.slice(2);
const BUILD = fileURLToPath(new URL('../../build/bench-ssr-reference', import.meta.url));

async function referenceApp() {
  const app = new Hono();
  if (kind === 'hello') app.get('*', (c) => c.text('Hello, world'));
  else if (kind === 'json') app.get('*', (c) => c.json({ message: 'Hello, world' }));
  else if (kind === 'ssr') {
    const build = await import(pathToFileURL(join(BUILD, 'server', 'index.js')).href);
    const handler = createRequestHandler(build, 'production');
    app.use('/assets/*', serveStatic({ root: join(BUILD, 'client') }));
    app.all('*', (c) => handler(c.req.raw));
  } else throw new Error(`unknown reference ${kind}`);
  return app;
}

const app = await referenceApp();
serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(port) }, () => console.log(`ready ${kind}`));
process.on('SIGTERM', () => process.exit(0));
