/** Every module's service, built once per process around one database. */
import type { Database } from './db/client';
import { createSiteService } from './modules/sites/service';
import { createContentService } from './modules/content/service';
import { createStorageService } from './modules/storage/service';
import { createAnalyticsService } from './modules/analytics/service';
import { createRateLimitService } from './modules/rate-limit/service';
import { createAccountService } from './modules/account/service';
import { createAuthService } from './modules/auth/service';
import { createMessagingService, type MessagingOptions } from './modules/messaging/service';
import { createOneTimeSecrets } from './modules/account/one-time-secrets';
import { createVerificationService } from './modules/verification/service';
import { createResponsibleGamingService } from './modules/responsible-gaming/service';
import { createSocialService } from './modules/social/service';
import { createWalletService } from './modules/wallet/service';
import { createCashierService } from './modules/cashier/service';
import { createJobService } from './modules/jobs/service';
import { createPaymentProviders } from './modules/payments/registry';
import { createGamesService } from './modules/games/service';
import { createGameRoundsService } from './modules/game-rounds/service';
import { gamesJurisdiction } from './modules/game-rounds/jurisdiction';
import { createFreespinsService } from './modules/freespins/service';
import { createGameHistoryService } from './modules/game-history/service';
import { createLiveGamesService, liveConfigFromEnv, type LiveGamesDeps } from './modules/live-games/service';
import { createProviderWalletService } from './modules/provider-wallet/service';
import { DEMO_PROVIDER, type ProviderConfig } from './modules/provider-wallet/providers';
import { createStatefulRoundsService } from './modules/game-rounds/stateful';
import { createLoyaltyService } from './modules/loyalty/service';
import { DEFAULT_LOCALE } from '#common/locale';

export interface ServiceOptions {
  messaging?: MessagingOptions;
  /** Live tables: phase lengths (default from LIVE_GAMES_* variables), and a clock and seeds for tests. */
  liveGames?: Pick<LiveGamesDeps, 'config' | 'clock' | 'drawServerSeed'>;
  /** External game providers of the seamless wallet; default: the demo provider (development, tests). */
  providers?: readonly ProviderConfig[];
  /** How long a mines or blackjack round may wait for its player (stateful.ts). */
  openRoundTimeoutMs?: number;
}

export function createServices(db: Database, options: ServiceOptions = {}) {
  const rateLimits = createRateLimitService(db);
  const wallet = createWalletService(db);
  const accounts = createAccountService(db, { balancesOf: (user) => wallet.balances(user.siteId, user.id, user.currency) });
  const responsibleGaming = createResponsibleGamingService(db, {
    revokeAllSessions: (userId) => auth.revokeAllSessions(userId),
    depositedSince: (userId, since, executor) => cashier.depositedSince(userId, since, executor),
  });
  const auth = createAuthService({
    db,
    accounts,
    rateLimits,
    findActiveExclusion: (userId) => responsibleGaming.activeExclusion(userId),
  });
  const content = createContentService(db);
  const sites = createSiteService(db);
  const siteSettings = async (siteId: string) => (await sites.listSites()).find((site) => site.id === siteId)?.settings ?? {};
  const jobs = createJobService(db);
  const payments = createPaymentProviders({
    db,
    jobs,
    siteSettings: async (siteId) => (await sites.listSites()).find((site) => site.id === siteId)?.settings,
  });
  /** Payment providers by name; the cashier looks one up per payment method. */
  const paymentProviders = payments.providers;
  const games = createGamesService({ db, content });
  const freespins = createFreespinsService({ db, wallet, games, findUser: (uid) => accounts.findUser(uid) });
  const gameRounds = createGameRoundsService({
    db,
    wallet,
    games,
    freespins,
    jurisdiction: async (siteId) => gamesJurisdiction(await siteSettings(siteId)),
    findUser: (uid) => accounts.findUser(uid),
    activeExclusion: (uid) => responsibleGaming.activeExclusion(uid),
  });
  const loyalty = createLoyaltyService({
    db,
    wallet,
    siteSettings,
    allSiteSettings: async () => Object.fromEntries((await sites.listSites()).map((site) => [site.id, site.settings])),
    pointsAlias: async (siteId) => {
      const alias = (await content.getConfig(siteId, DEFAULT_LOCALE)).loyalty.pointsAlias;
      return typeof alias === 'string' && alias ? alias : 'points';
    },
  });
  const cashier = createCashierService({
    db,
    wallet,
    accounts,
    content,
    responsibleGaming: () => responsibleGaming,
    findProvider: (name) => paymentProviders.get(name),
  });
  return {
    wallet,
    cashier,
    paymentProviders,
    payments,
    jobs,
    responsibleGaming,
    messaging: createMessagingService(db, options.messaging),
    oneTimeSecrets: createOneTimeSecrets(db),
    verification: createVerificationService(db),
    db,
    sites,
    content,
    storage: createStorageService(db),
    analytics: createAnalyticsService(db),
    rateLimits,
    accounts,
    auth,
    social: createSocialService({ db, accounts }),
    liveGames: createLiveGamesService({
      db,
      wallet,
      games,
      sites,
      findUser: (uid) => accounts.findUser(uid),
      activeExclusion: (uid) => responsibleGaming.activeExclusion(uid),
      grantDemoCredit: gameRounds.grantDemoCredit,
      ...options.liveGames,
      config: { ...liveConfigFromEnv(), ...options.liveGames?.config },
    }),
    providerWallet: createProviderWalletService({
      db,
      wallet,
      games,
      findUser: (uid) => accounts.findUser(uid),
      activeExclusion: (uid) => responsibleGaming.activeExclusion(uid),
      providers: options.providers ?? [DEMO_PROVIDER],
    }),
    games,
    freespins,
    loyalty,
    gameHistory: createGameHistoryService({
      db,
      jobs,
      rateLimits,
      games,
      freespinRoundIds: (ids) => freespins.paidRoundIds(ids),
    }),
    gameRounds,
    statefulRounds: createStatefulRoundsService({
      db,
      wallet,
      games,
      rounds: gameRounds,
      abandonAfterMs: options.openRoundTimeoutMs,
      findUser: (uid) => accounts.findUser(uid),
      activeExclusion: (uid) => responsibleGaming.activeExclusion(uid),
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
