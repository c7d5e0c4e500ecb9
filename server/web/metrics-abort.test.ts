/**
 * Issue 12: "/metrics counts only real errors". A page request the client gave up on (closed the
 * connection while the page rendered) is counted as 499, not as the HTTP 500 the renderer makes of
 * the abort; a page that renders is still counted with its own status.
 */
import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import pino from 'pino';
import type { ServerBuild } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeededTestDatabase, type TestDatabase } from '../../test/databases';
import { createHttpApp } from '../http';
import { createServices } from '../services';
import { NO_PROXY } from './client-address';
import { createMetrics } from './metrics';

/** The React Router build `npm test` makes before this project runs. */
const SERVER_BUILD = fileURLToPath(new URL('../../build/server/index.js', import.meta.url));

/** The http_requests_total counter for page requests, by status. */
async function pageCounts(metrics: ReturnType<typeof createMetrics>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const match of (await metrics.render()).matchAll(/^http_requests_total\{kind="page",status="(\d+)"\} (\d+)$/gm))
    counts[match[1] ?? ''] = Number(match[2]);
  return counts;
}

describe('/metrics and aborted page requests (issue 12)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    if (!existsSync(SERVER_BUILD)) throw new Error(`${SERVER_BUILD} is missing: run \`npm run build\` first`);
    database = await createSeededTestDatabase('pglite');
  });
  afterAll(() => database?.drop());

  const loadBuild = async () => (await import(pathToFileURL(SERVER_BUILD).href)) as ServerBuild;

  /** The site with its pages, counting answers in `metrics`. */
  function pageApp(metrics: ReturnType<typeof createMetrics>, mode: 'production' | 'test', getBuild: () => Promise<ServerBuild>) {
    return createHttpApp({
      services: createServices(database.handle.db, { notify: database.handle.notify }),
      logger: pino({ level: 'silent' }),
      mode,
      maxBodyBytes: 1024,
      proxy: NO_PROXY,
      buildVersion: 't',
      metrics,
      getBuild,
    });
  }

  it('counts a page request aborted by the client as 499 and never as 500', async () => {
    const metrics = createMetrics();
    const app = pageApp(metrics, 'production', loadBuild);
    const rendered = await app.request('http://127.0.0.1/');
    expect(rendered.status).toBe(200);
    await rendered.text();

    // The client goes away while the loaders run, as a closed connection aborts the request's signal.
    const client = new AbortController();
    const answer = app.request(new Request('http://127.0.0.1/gamehall', { signal: client.signal }));
    client.abort();
    const aborted = await answer;
    await aborted.text().catch(() => undefined);

    const counts = await pageCounts(metrics);
    expect(counts['200']).toBe(1);
    expect(counts['499']).toBe(1);
    expect(counts['500']).toBeUndefined();
  });

  it("over Node's HTTP server, a connection closed while the page renders is counted as 499, and a page answered as 200", async () => {
    const metrics = createMetrics();
    let builds = 0;
    // Not production: the build is asked for on every request, so the second one can be held up.
    const app = pageApp(metrics, 'test', async () => {
      // The second page is still being made when its client closes the connection.
      if (++builds === 2) await new Promise((resolve) => setTimeout(resolve, 300));
      return loadBuild();
    });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const answered = await fetch(`http://127.0.0.1:${port}/`);
      expect(answered.status).toBe(200);
      await answered.text();
      const client = httpRequest({ host: '127.0.0.1', port, path: '/gamehall' });
      client.on('error', () => undefined);
      client.end(() => setTimeout(() => client.destroy(), 50));
      let counts: Record<string, number> = {};
      for (let waited = 0; waited < 10_000 && Object.keys(counts).length < 2; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        counts = await pageCounts(metrics);
      }
      expect(counts).toEqual({ '200': 1, '499': 1 });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
