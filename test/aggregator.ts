/**
 * The demo game aggregator beside a test app, both over real HTTP on 127.0.0.1 (issue 15; the
 * team's rule: parts separate in real life talk HTTP): the site's app on a port of its own, the
 * aggregator as its own process (tsx), and optionally a proxy in between that can hold wallet
 * requests back, so the aggregator meets timeouts as it would on a network.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import type { TestApp } from './api-harness';
import { startAggregatorProcess, type AggregatorProcess } from '../server/game-aggregator/process';
import { DEMO_PROVIDER } from '../server/modules/provider-wallet';

export const AGGREGATOR_ENTRY = fileURLToPath(new URL('../server/game-aggregator/main.ts', import.meta.url));

/** A wallet request the proxy saw: its action and parsed body. */
export interface SeenRequest {
  action: string;
  body: Record<string, unknown>;
}

/** Holds the matching wallet requests back before passing them on (the answer then comes late). */
export interface DelayRule {
  action: string;
  delayMs: number;
  /** How many matching requests to hold back (then the rule is spent). */
  times: number;
}

export interface AggregatorRig {
  /** The site as the browser reaches it (through the proxy): launches name this origin as the wallet. */
  siteUrl: string;
  aggregator: AggregatorProcess;
  /** The test app whose requests go over HTTP to siteUrl (for test/player.ts browsers). */
  viaHttp: TestApp;
  seen: SeenRequest[];
  delay(rule: DelayRule): void;
  close(): Promise<void>;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startAggregatorRig(t: TestApp, env: Record<string, string> = {}): Promise<AggregatorRig> {
  const site = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => site.once('listening', resolve));
  const sitePort = (site.address() as AddressInfo).port;
  const seen: SeenRequest[] = [];
  const rules: DelayRule[] = [];

  // Passes everything on to the site, recording wallet requests and holding some back.
  const proxy = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const action = /^\/provider-api\/[^/]+\/([^/?]+)/.exec(request.url ?? '')?.[1];
      if (action) {
        seen.push({ action, body: JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown> });
        const rule = rules.find((candidate) => candidate.action === action && candidate.times > 0);
        if (rule) {
          rule.times--;
          await new Promise((resolve) => setTimeout(resolve, rule.delayMs));
        }
      }
      // node:http keeps the Host header (fetch would not): the site sees the origin the browser used.
      const upstream = httpRequest(
        { host: '127.0.0.1', port: sitePort, path: request.url, method: request.method, headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.once('error', () => {
        if (!response.headersSent) response.writeHead(502);
        response.end();
      });
      upstream.end(body);
    })();
  });
  const proxyPort = await listen(proxy);
  const siteUrl = `http://127.0.0.1:${proxyPort}`;

  const aggregator = await startAggregatorProcess({
    entry: AGGREGATOR_ENTRY,
    execArgv: ['--import', 'tsx'],
    env: { LOG_LEVEL: 'silent', AGGREGATOR_DUPLICATE_RATE: '0', AGGREGATOR_RETRY_DELAY_MS: '20', ...env },
  });
  t.services.gameLaunch.connect({ url: aggregator.url, provider: DEMO_PROVIDER });

  const viaHttp: TestApp = {
    ...t,
    request: (path, init = {}) => {
      const { host: _host, ...rest } = init;
      return fetch(`${siteUrl}${path}`, { ...rest, redirect: 'manual' });
    },
  };
  return {
    siteUrl,
    aggregator,
    viaHttp,
    seen,
    delay: (rule) => rules.push({ ...rule }),
    async close() {
      t.services.gameLaunch.connect(undefined);
      await aggregator.stop();
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      site.close();
    },
  };
}
