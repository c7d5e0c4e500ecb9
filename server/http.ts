/**
 * Composes the whole HTTP surface (architecture §1) from the modules: API, configuration
 * service, content platform, analytics hit, PWA and SEO files, assets, and the pages.
 */
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import type { ServerBuild } from 'react-router';
import type { Logger } from 'pino';
import { ApiError } from '#common/errors';
import type { Services } from './services';
import type { AppEnv } from './web/app-env';
import { dropVisitorCookieIfPublic, isMachineRoute, machineIdentity, resolveIdentity } from './web/identity';
import type { ProxyTrust } from './web/client-address';
import { answerApiCall, type ApiOptions, type ApiReply } from './api/dispatcher';
import { paramsRequestOf } from './web/request-body';
import { peerAddress } from './web/client-address';
import { refuseHostileAddress } from './web/hostile-address';
import { createConfigRoutes } from './web/config-service';
import { createContentPlatformRoutes } from './web/content-platform';
import { createTranslationRoutes } from './web/translations';
import { TRANSLATIONS_PATH } from '#common/translations';
import { createHitRoutes } from './web/hit';
import { createPwaRoutes } from './web/pwa';
import { createSeoRoutes } from './web/seo';
import { createPageHandler } from './web/pages';
import { answerHeaders } from './web/answer-headers';
import { requestHeader } from './web/request-headers';
import { asBody, compressResponses } from './web/compression';
import {
  CLIENT_CLOSED_REQUEST,
  createMetrics,
  metricsOnSiteListener,
  recordAnswer,
  type Metrics,
  type SharedCallSources,
} from './web/metrics';
import { createDevOutboxRoutes } from './web/dev-outbox';
import { createKycSandboxRoutes } from './web/kyc-sandbox';
import { createOauthRoutes } from './web/oauth';
import { createPspSandboxRoutes } from './web/psp-sandbox';
import { createPspWebhookRoutes } from './web/psp-webhooks';
import { createBackofficeRoutes } from './web/backoffice';
import { createAvatarArtRoutes, createGameArtRoutes } from './web/game-art';
import { createHistoryExportRoutes } from './web/history-export';
import { createLiveRoutes, type LiveStreamLimits } from './modules/live-games';
import { createSportsbookRoutes } from './modules/sportsbook';
import { createProviderApiRoutes } from './web/provider-api';

export interface HttpAppOptions {
  services: Services;
  logger: Logger;
  mode: 'development' | 'production' | 'test';
  maxBodyBytes: number;
  /** How far X-Forwarded-For and the country header are believed (TRUSTED_PROXIES, PROXY_HOPS). */
  proxy: ProxyTrust;
  buildVersion: string;
  /** The React Router server build; absent in API-only tests. */
  getBuild?: () => Promise<ServerBuild>;
  /** Serves built assets (production); development lets Vite do it. */
  serveAssets?: Parameters<Hono<AppEnv>['use']>[1];
  /** Bearer token for /metrics on this listener; without one the site does not serve /metrics. */
  metricsToken?: string;
  /** The metrics registry, when the caller also serves it on a private listener (METRICS_PORT). */
  metrics?: Metrics;
  /** Serve /dev/outbox (development and test runs only). */
  isOutboxPageEnabled?: boolean;
  /** Caps on live-event streams (LIVE_STREAMS_*); unset ones keep the module's defaults. */
  liveStreams?: Partial<LiveStreamLimits>;
  /** Back-office operators by token (BACKOFFICE_TOKENS); none means the back office answers no one. */
  backofficeTokens?: Map<string, string>;
}

/**
 * Whether the client gave up before its answer. Under Node's HTTP server the answer knows (its
 * socket closed under it): asking the web Request's signal would build that Request, which an API
 * GET never needs otherwise (issue 12: a tenth of account.getInfo's CPU). Elsewhere (app.request in
 * tests) the request's signal says it.
 */
function isClientGone(env: unknown, request: Request): boolean {
  const outgoing = (env as { outgoing?: { destroyed: boolean; writableFinished: boolean } } | undefined)?.outgoing;
  return outgoing ? outgoing.destroyed && !outgoing.writableFinished : request.signal.aborted;
}

/** The status to count: a request the client aborted is not a server error, whatever the renderer made of the abort (issue 12). */
function answeredStatus(clientGone: boolean, status: number): number {
  return clientGone ? CLIENT_CLOSED_REQUEST : status;
}

/** The group-commit queues /metrics reports: shared rounds, the ledger's groups, provider money. */
function sharedCallSourcesOf(services: Services): SharedCallSources {
  return {
    rounds: () => {
      const { calls, rounds, failedCalls } = services.gameRounds.sharedRoundStats();
      return { calls, items: rounds, failedCalls };
    },
    ledger: () => {
      const { calls, groups } = services.wallet.groupCommitStats();
      return { calls, items: groups };
    },
    provider: () => {
      const stats = services.providerWallet.sharedMoneyStats();
      return stats && { calls: stats.calls, items: stats.rounds, failedCalls: stats.failedCalls };
    },
  };
}

/** The game aggregator's origin, when one is connected: the policy's frame-src names it. */
function frameOriginsOf(services: Services): () => readonly string[] {
  return () => {
    const origin = services.gameLaunch.origin();
    return origin ? [origin] : [];
  };
}

/** What the API's dispatcher needs of the app's options; main.ts gives the same to the API's lane (web/api-lane.ts). */
export function apiOptionsOf(options: HttpAppOptions): ApiOptions {
  return {
    services: options.services,
    logger: options.logger,
    mode: options.mode,
    proxy: options.proxy,
    maxBodyBytes: options.maxBodyBytes,
    frameOrigins: frameOriginsOf(options.services),
  };
}

function replyResponse(reply: ApiReply): Response {
  const headers = new Headers();
  for (let index = 0; index < reply.headers.length; index += 2) {
    headers.append(reply.headers[index] as string, reply.headers[index + 1] as string);
  }
  const body = typeof reply.body === 'string' ? reply.body : asBody(reply.body);
  return new Response(body, { status: reply.status, headers });
}

export function createHttpApp(options: HttpAppOptions) {
  const { services, logger } = options;
  const app = new Hono<AppEnv>();
  const metrics = options.metrics ?? createMetrics();
  metrics.watchSharedCalls(sharedCallSourcesOf(services));
  const apiOptions = apiOptionsOf(options);

  // The API makes its whole answer itself (api/dispatcher.ts), so it comes before every middleware
  // below. Under Node's server most API requests never reach the app (web/api-lane.ts).
  app.all('/api/*', async (c) => {
    const started = performance.now();
    const reply = await answerApiCall(
      {
        method: c.req.method,
        url: new URL(c.req.url),
        header: (name) => requestHeader(c, name),
        peer: peerAddress(c.env),
        body: () => paramsRequestOf(c, options.maxBodyBytes),
      },
      apiOptions,
    );
    recordAnswer(metrics, logger, {
      requestId: requestHeader(c, 'x-request-id'),
      method: c.req.method,
      path: c.req.path,
      status: answeredStatus(isClientGone(c.env, c.req.raw), reply.status),
      durationMs: performance.now() - started,
    });
    return replyResponse(reply);
  });

  app.use('*', async (c, next) => {
    const started = performance.now();
    c.set('requestId', requestHeader(c, 'x-request-id') ?? randomUUID());
    c.set('services', services);
    await next();
    recordAnswer(metrics, logger, {
      requestId: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      status: answeredStatus(isClientGone(c.env, c.req.raw), c.res.status),
      durationMs: performance.now() - started,
    });
  });
  // Outside everything that writes an answer, so every page, JSON and SVG answer can be compressed.
  app.use('*', compressResponses());
  app.use('*', answerHeaders(options.mode, frameOriginsOf(services)));

  app.use('*', refuseHostileAddress);

  app.get('/healthz', async (c) => {
    await services.sites.listSites();
    return c.json({ status: 'ok' });
  });
  // Not by client address: behind a reverse proxy on this host every visitor is loopback (issue 11).
  app.get('/metrics', metricsOnSiteListener(metrics, options.metricsToken));

  if (options.serveAssets) app.use('/assets/*', options.serveAssets);

  // Every route below knows its site and visitor (a machine route: its caller's address only).
  app.use('*', async (c, next) => {
    c.set('site', await services.sites.resolveSite(requestHeader(c, 'host')));
    c.set(
      'identity',
      isMachineRoute(c.req.path) ? machineIdentity(c, options.proxy) : await resolveIdentity(c, options.proxy, services),
    );
    await next();
    if (!c.get('isAnswerComplete')) dropVisitorCookieIfPublic(c.res);
  });

  app.route('/nfx', createConfigRoutes());
  app.route('/cms', createContentPlatformRoutes());
  app.route('/hit', createHitRoutes());
  app.route('/', createPwaRoutes(options.buildVersion));
  app.route('/', createSeoRoutes());
  app.route('/platform/art', createGameArtRoutes());
  app.route(TRANSLATIONS_PATH, createTranslationRoutes());
  app.route('/platform/avatar', createAvatarArtRoutes());
  app.route('/platform/history-export', createHistoryExportRoutes());
  app.route('/platform/live', createLiveRoutes({ limits: options.liveStreams }));
  app.route('/platform/sportsbook', createSportsbookRoutes({ limits: options.liveStreams }));
  app.route(
    '/kyc',
    createKycSandboxRoutes(() => app.fetch),
  );
  app.route('/oauth', createOauthRoutes({ fetchInternal: () => app.fetch, logger }));
  app.route('/psp/sandbox', createPspSandboxRoutes());
  app.route(
    '/psp',
    createPspWebhookRoutes((services) => services.cashier, logger),
  );
  app.route('/provider-api', createProviderApiRoutes(logger));
  if (options.isOutboxPageEnabled) app.route('/dev', createDevOutboxRoutes());
  app.route('/backoffice', createBackofficeRoutes(options.backofficeTokens ?? new Map()));

  if (options.getBuild) {
    app.all('*', createPageHandler(options.getBuild, options.mode, logger));
  }

  app.onError((error, c) => {
    logger.error({ err: error, path: c.req.path, reqId: c.get('requestId') }, 'unhandled error');
    const body = new ApiError('UnknownErrorException', 'Unknown error').toBody();
    return c.req.path.startsWith('/api/') ? c.json({ error: body }, 500) : c.text('Internal Server Error', 500);
  });
  app.notFound((c) => c.json({ error: new ApiError('MethodNotFoundException', 'Not found').toBody() }, 404));
  return app;
}

export type HttpApp = ReturnType<typeof createHttpApp>;
