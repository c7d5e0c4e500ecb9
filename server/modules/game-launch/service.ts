/**
 * Launching the external studios' titles (issue 15; docs/game-aggregator.md): the site asks the
 * game aggregator for a launch URL, as operators do with real aggregators' game-launch APIs. A
 * real-money launch first opens a seamless-wallet session (provider-wallet) whose token the
 * aggregator authenticates with; the request is signed with the aggregator's provider secret.
 *
 * Which titles can start is the aggregator's health answer (`GET /healthz` lists its titles),
 * asked with a short timeout and kept for a few seconds: a title no aggregator serves now is
 * hidden from the lobby, search and counts (games service) instead of failing at launch. An
 * answer that is only late (a loaded machine) keeps the last good list for a while, so the lobby
 * does not lose every external title for one slow answer; a refusal or an unhealthy answer
 * hides them at once.
 */
import { invalidParameter as invalid } from '#common/parameter-errors';
import { ApiError } from '#common/errors';
import { SIGNATURE_HEADER, signBody, type ProviderConfig, type ProviderWalletService } from '../provider-wallet';

export interface AggregatorTarget {
  /** The aggregator's base URL. */
  url: string;
  /** The wallet provider it calls us as; its secret signs our launch requests. */
  provider: ProviderConfig;
}

export interface GameLaunchDeps {
  providerWallet: Pick<ProviderWalletService, 'openProviderSession' | 'closeProviderSession'>;
  /** How long a health answer is believed (ms); a failure is believed for a fifth of it. */
  healthTtlMs?: number;
  /** How long after the last good answer a late one still leaves its titles listed (ms); default 3 × the TTL. */
  healthGraceMs?: number;
  healthTimeoutMs?: number;
  launchTimeoutMs?: number;
  now?: () => number;
}

export interface LaunchRequest {
  siteId: string;
  /** 0 for an anonymous visitor (demo only). */
  uid: number;
  sysname: string;
  mode: 'real' | 'demo';
  currency: string;
  language: 'en' | 'it';
  /** Where the game's exit goes (the game page). */
  returnUrl: string;
  /** Our origin as the player reaches it: the aggregator calls `{walletUrl}/provider-api/…` there. */
  walletUrl: string;
}

const DEFAULT_HEALTH_TTL_MS = 10_000;

export function createGameLaunchService(deps: GameLaunchDeps) {
  const now = deps.now ?? Date.now;
  const ttl = deps.healthTtlMs ?? DEFAULT_HEALTH_TTL_MS;
  let target: AggregatorTarget | undefined;
  /** The target's origin, worked out when it connects: every answer's policy names it (issue 12, per-call cost). */
  let targetOrigin: string | undefined;
  const grace = deps.healthGraceMs ?? 3 * ttl;
  let health: { titles: ReadonlySet<string>; until: number } | undefined;
  /** The current target's last good answer and when it came. */
  let lastGood: { titles: ReadonlySet<string>; at: number } | undefined;
  let asking: Promise<ReadonlySet<string>> | undefined;

  async function askHealth(current: AggregatorTarget): Promise<ReadonlySet<string>> {
    try {
      const response = await fetch(`${current.url}/healthz`, { signal: AbortSignal.timeout(deps.healthTimeoutMs ?? 1_500) });
      const body = (await response.json()) as { status?: string; titles?: unknown };
      if (!response.ok || body.status !== 'ok' || !Array.isArray(body.titles)) throw new Error('not healthy');
      const titles = new Set(body.titles.filter((title): title is string => typeof title === 'string'));
      health = { titles, until: now() + ttl };
      if (target === current) lastGood = { titles, at: now() };
      return titles;
    } catch (error) {
      // Late: the last good list stands in for a while. Down or unhealthy: its titles are hidden.
      // Either way the answer is asked again shortly.
      const isLate = error instanceof DOMException && error.name === 'TimeoutError';
      const stillListed = isLate && lastGood && now() - lastGood.at < grace ? lastGood.titles : new Set<string>();
      health = { titles: stillListed, until: now() + Math.max(500, ttl / 5) };
      return health.titles;
    }
  }

  /** The titles the aggregator serves now (empty when none is configured or it is down). */
  async function hostedTitles(): Promise<ReadonlySet<string>> {
    const current = target;
    if (!current) return new Set();
    if (health && health.until > now()) return health.titles;
    // One question at a time, however many pages ask.
    asking ??= askHealth(current).finally(() => {
      asking = undefined;
    });
    return asking;
  }

  return {
    /** Points the site at an aggregator (the built-in child's URL is known only once it is up). */
    connect(next: AggregatorTarget | undefined): void {
      target = next;
      targetOrigin = next ? new URL(next.url).origin : undefined;
      health = undefined;
      lastGood = undefined;
    },

    hostedTitles,

    /** Forgets the cached health answer (tests, an operator's check). */
    forgetHealth(): void {
      health = undefined;
    },

    /**
     * The URL the game frame opens. Throws InvalidParameterException naming sysname when no
     * aggregator serves the title now, AuthorizationException for real money without a player.
     */
    async launch(request: LaunchRequest): Promise<{ url: string }> {
      const current = target;
      if (!current || !(await hostedTitles()).has(request.sysname))
        throw invalid('sysname', 'The game’s provider is not available');
      if (request.mode === 'real' && request.uid <= 0)
        throw new ApiError('AuthorizationException', 'Sign in to play for real money');
      const session =
        request.mode === 'real'
          ? await deps.providerWallet.openProviderSession(request.siteId, request.uid, request.sysname, request.currency)
          : undefined;
      const body = JSON.stringify({
        operator: current.provider.name,
        game_id: request.sysname,
        mode: request.mode,
        ...(session ? { token: session.token } : {}),
        currency: request.currency,
        language: request.language,
        return_url: request.returnUrl,
        wallet_url: request.walletUrl,
      });
      let answer: { url?: unknown; error?: { code?: string } };
      try {
        const response = await fetch(`${current.url}/api/v1/launch`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signBody(current.provider.secret, body) },
          body,
          signal: AbortSignal.timeout(deps.launchTimeoutMs ?? 10_000),
        });
        answer = (await response.json()) as typeof answer;
      } catch {
        answer = {};
      }
      const url = typeof answer.url === 'string' && answer.url.startsWith(current.url) ? answer.url : undefined;
      if (!url) {
        if (session) await deps.providerWallet.closeProviderSession(session.token);
        // Not answering counts as down: the title leaves the lobby until the next health check.
        if (!answer.error) health = undefined;
        throw invalid('sysname', 'The game’s provider is not available');
      }
      return { url };
    },

    /** The aggregator's origin, for the site's frame-src (undefined when none is connected). */
    origin(): string | undefined {
      return targetOrigin;
    },
  };
}

export type GameLaunchService = ReturnType<typeof createGameLaunchService>;
