/**
 * The demo aggregator's HTTP face (docs/game-aggregator.md):
 * - `POST /api/v1/launch`, signed by the operator as its wallet requests are (X-Signature, HMAC
 *   of the raw body): player token, currency, language, mode, return URL, wallet URL and game →
 *   the URL of the game client, as real aggregators' game-launch APIs answer;
 * - `GET /play/{session}`: the game client (HTML, script, style, drawn SVG) the site frames;
 * - the client's own calls under `/play/{session}/…`: state, rounds and actions, and a live
 *   table's state and bets (`/table`, `/table/bets`);
 * - `GET /healthz`: up, and which titles it hosts (the site hides the others).
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { Logger } from 'pino';
import { isSignatureValid, SIGNATURE_HEADER } from './wallet-protocol';
import { createWalletClient, type WalletOptions } from './wallet';
import { DEMO_BALANCE_MINOR, PlayError, type PlayErrorCode, type Session, type SessionStore } from './sessions';
import type { PlayerTitle } from './title';
import type { LiveRooms } from './tables/live-rooms';
import { addLiveTableRoutes } from './tables/live-routes';

export interface Operator {
  /** Its name is the provider name the operator's wallet knows us by (`/provider-api/{name}/…`). */
  name: string;
  secret: string;
}

export interface AggregatorAppOptions {
  operators: readonly Operator[];
  store: SessionStore;
  titles: ReadonlyMap<string, PlayerTitle>;
  /** Every hosted title id (player titles and live tables). */
  hostedTitles: readonly string[];
  /** Where players reach this server (the launch URL's origin). */
  publicUrl: () => string;
  /** Whether the operator may name this wallet URL (loopback in the demo, a list otherwise). */
  isWalletUrlAllowed: (url: URL) => boolean;
  wallet: Omit<WalletOptions, 'provider' | 'secret' | 'logger'>;
  client: { script: string; style: string };
  /** The LiveWave tables' shared rounds (tables/live-rooms.ts). */
  live?: LiveRooms;
  logger?: Pick<Logger, 'warn' | 'info' | 'error'>;
}

const launchSchema = z.object({
  operator: z.string().min(1).max(64),
  game_id: z.string().regex(/^[a-z0-9-]{1,64}$/),
  mode: z.enum(['real', 'demo']),
  token: z.string().min(16).max(200).optional(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  language: z.enum(['en', 'it']),
  return_url: z.url({ protocol: /^https?$/ }),
  wallet_url: z.url({ protocol: /^https?$/ }),
});

const PLAY_ERROR_STATUS: Record<PlayErrorCode, 400 | 401 | 402 | 403 | 404 | 409 | 502 | 503> = {
  INVALID_INPUT: 400,
  SESSION_EXPIRED: 401,
  INSUFFICIENT_FUNDS: 402,
  PLAYER_BLOCKED: 403,
  ROUND_NOT_FOUND: 404,
  ROUND_IN_PROGRESS: 409,
  REFUSED: 502,
  WALLET_UNAVAILABLE: 503,
};

const MAX_BODY_BYTES = 8 * 1024;

function fail(c: Context, status: 400 | 401 | 403 | 404 | 502 | 503, code: string, message: string) {
  return c.json({ error: { code, message } }, status);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function createAggregatorApp(options: AggregatorAppOptions) {
  const app = new Hono();
  const operators = new Map(options.operators.map((operator) => [operator.name, operator]));
  const { store } = options;

  app.use('*', bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => fail(c, 400, 'INVALID_REQUEST', 'The body is too large') }));
  app.use('*', async (c, next) => {
    await next();
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
  });

  app.get('/healthz', (c) => c.json({ status: 'ok', titles: options.hostedTitles }));

  app.post('/api/v1/launch', async (c) => {
    const rawBody = await c.req.text();
    let json: unknown;
    try {
      json = JSON.parse(rawBody);
    } catch {
      return fail(c, 400, 'INVALID_REQUEST', 'The body is not JSON');
    }
    const name = typeof (json as { operator?: unknown })?.operator === 'string' ? (json as { operator: string }).operator : '';
    const operator = operators.get(name);
    // The signature first: nothing of an unsigned launch is acted on.
    if (!operator || !isSignatureValid(operator.secret, rawBody, c.req.header(SIGNATURE_HEADER)))
      return fail(c, 401, 'INVALID_SIGNATURE', 'Unknown operator or wrong X-Signature');
    const parsed = launchSchema.safeParse(json);
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path.join('.') ?? '';
      return c.json({ error: { code: 'INVALID_REQUEST', message: `Invalid field: ${field}`, field } }, 400);
    }
    const launch = parsed.data;
    if (!options.hostedTitles.includes(launch.game_id)) return fail(c, 404, 'GAME_NOT_FOUND', 'This game is not hosted here');
    const walletUrl = new URL(launch.wallet_url);
    if (!options.isWalletUrlAllowed(walletUrl)) return fail(c, 403, 'WALLET_NOT_ALLOWED', 'The wallet URL is not allowed');
    const common = {
      mode: launch.mode,
      titleId: launch.game_id,
      language: launch.language,
      currency: launch.currency,
      returnUrl: launch.return_url,
      siteOrigin: new URL(launch.return_url).origin,
    };

    let session: Session;
    if (launch.mode === 'demo') session = store.open({ ...common, balanceMinor: DEMO_BALANCE_MINOR });
    else {
      if (!launch.token)
        return c.json({ error: { code: 'INVALID_REQUEST', message: 'Invalid field: token', field: 'token' } }, 400);
      const wallet = createWalletClient(walletUrl.origin, {
        ...options.wallet,
        provider: operator.name,
        secret: operator.secret,
        logger: options.logger,
      });
      const outcome = await wallet.authenticate(launch.token);
      if (outcome.kind === 'unavailable') return fail(c, 503, 'WALLET_UNAVAILABLE', 'The operator wallet did not answer');
      if (outcome.kind === 'refused') return fail(c, 403, outcome.code, outcome.message);
      if (outcome.body.currency !== launch.currency)
        return fail(c, 400, 'CURRENCY_MISMATCH', 'The session plays in another currency');
      session = store.open({
        ...common,
        balanceMinor: outcome.balanceMinor,
        player: { token: launch.token, playerId: String(outcome.body.player_id), wallet },
      });
    }
    return c.json({ url: `${options.publicUrl()}/play/${session.id}`, session_id: session.id });
  });

  app.get('/assets/client.js', (c) =>
    c.body(options.client.script, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' }),
  );
  app.get('/assets/client.css', (c) =>
    c.body(options.client.style, 200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'no-cache' }),
  );

  app.get('/play/:session', (c) => {
    const session = store.get(c.req.param('session'));
    if (!session) return c.html('<!doctype html><title>Session ended</title><p>This game session has ended.</p>', 404);
    c.header(
      'content-security-policy',
      `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors ${session.siteOrigin}`,
    );
    return c.html(
      `<!doctype html><html lang="${session.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(session.titleId)}</title><link rel="stylesheet" href="/assets/client.css"></head><body><main id="game" data-session="${escapeHtml(session.id)}" data-language="${session.language}" data-mode="${session.mode}" data-site-origin="${escapeHtml(session.siteOrigin)}"></main><script type="module" src="/assets/client.js"></script></body></html>`,
    );
  });

  /** The session of the path, or a 404 answer. */
  function withSession(handler: (c: Context, session: Session) => Promise<Response>) {
    return async (c: Context) => {
      const session = store.get(c.req.param('session') ?? '');
      if (!session) return fail(c, 404, 'SESSION_NOT_FOUND', 'This game session has ended');
      try {
        return await handler(c, session);
      } catch (error) {
        if (error instanceof PlayError)
          return c.json({ error: { code: error.code, message: error.message } }, PLAY_ERROR_STATUS[error.code]);
        options.logger?.error({ err: error }, 'game request failed');
        return fail(c, 503, 'INTERNAL_ERROR', 'The game could not answer; try again');
      }
    };
  }

  async function inputOf(c: Context): Promise<unknown> {
    try {
      return ((await c.req.json()) as { input?: unknown }).input;
    } catch {
      throw new PlayError('INVALID_INPUT', 'The body is not JSON');
    }
  }

  app.get(
    '/play/:session/state',
    withSession(async (c, session) => {
      const title = options.titles.get(session.titleId);
      return c.json({
        game: session.titleId,
        kind: title?.kind ?? 'live-table',
        // A live table is LiveWave's (the only studio with shared tables).
        provider: title?.provider ?? (title ? undefined : 'livewave'),
        mode: session.mode,
        language: session.language,
        currency: session.currency,
        return_url: session.returnUrl,
        balance: (await store.refreshBalance(session)).toString(),
        // A client that comes back (a reload launches a new session) resumes the round or shows the last one.
        open_round: store.openRoundOf(session) ?? null,
        last_round: store.lastRoundOf(session) ?? null,
      });
    }),
  );

  app.post(
    '/play/:session/rounds',
    withSession(async (c, session) => c.json(await store.start(session, await inputOf(c)))),
  );

  app.post(
    '/play/:session/rounds/:round/actions',
    withSession(async (c, session) => c.json(await store.act(session, c.req.param('round') ?? '', await inputOf(c)))),
  );

  if (options.live) addLiveTableRoutes(app, store, options.live);

  app.all('*', (c) => fail(c, 404, 'NOT_FOUND', 'Not found'));
  return app;
}
