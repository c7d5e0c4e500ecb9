/** Every module's service, built once per process around one database. */
import { randomBytes } from 'node:crypto';
import type { Database } from './db/client';
import { createSiteService, createSiteSecrets, isPspSandboxSite } from './modules/sites';
import { createContentService } from './modules/content';
import { createStorageService } from './modules/storage';
import { createAnalyticsService } from './modules/analytics';
import { createRateLimitService } from './modules/rate-limit';
import { createAccountService, createOneTimeSecrets } from './modules/account';
import { createAuthService } from './modules/auth';
import { createMessagingService, type MessagingOptions } from './modules/messaging';
import { createVerificationService } from './modules/verification';
import { createResponsibleGamingService } from './modules/responsible-gaming';
import { createSocialService } from './modules/social';
import { checkLedger, createWalletService } from './modules/wallet';
import { createCashierService } from './modules/cashier';
import { createJobService, type JobServiceOptions } from './modules/jobs';
import { createPaymentProviders } from './modules/payments';
import { createGamesService } from './modules/games';
import { createGameRoundsService, gamesJurisdiction, createStatefulRoundsService } from './modules/game-rounds';
import { createFreespinsService } from './modules/freespins';
import { createGameHistoryService } from './modules/game-history';
import { createLiveGamesService, type LiveGamesDeps } from './modules/live-games';
import { createProviderWalletService, DEMO_PROVIDER, type ProviderConfig } from './modules/provider-wallet';
import { createLoyaltyService } from './modules/loyalty';
import { createBonusService } from './modules/bonuses';
import { createCashbackService } from './modules/cashbacks';
import { createBannerService } from './modules/banners';
import { createPopupService } from './modules/popups';
import { createRoundIntake } from './modules/round-intake';
import {
  createSportsbookService,
  createTicketBook,
  describeLegs,
  sportsbookLimits,
  storeMarketSource,
} from './modules/sportsbook';
import { DEFAULT_LOCALE } from '#common/locale';

export interface ServiceOptions {
  messaging?: MessagingOptions;
  /** Live tables: phase lengths (LIVE_GAMES_* through server/config.ts), and a clock and seeds for tests. */
  liveGames?: Pick<LiveGamesDeps, 'config' | 'clock' | 'drawServerSeed'>;
  /** External game providers of the seamless wallet; default: the demo provider (development, tests). */
  providers?: readonly ProviderConfig[];
  /** How long a mines or blackjack round may wait for its player (stateful.ts). */
  openRoundTimeoutMs?: number;
  /** SECRET_* settings from the environment or secrets file (server/config.ts): real sites' secrets. */
  siteSecrets?: Readonly<Record<string, string>>;
  /** The odds feed's producer liveness timeout (FEED_LIVENESS_TIMEOUT_MS through server/config.ts). */
  sportsbook?: { livenessTimeoutMs?: number; inPlayDelayMs?: number };
  /** The job queue's database listener (boot passes DatabaseHandle.listen): enqueues wake workers. */
  jobs?: JobServiceOptions;
}

export function createServices(db: Database, options: ServiceOptions = {}) {
  const rateLimits = createRateLimitService(db);
  const wallet = createWalletService(db);
  const accounts = createAccountService(db, { balancesOf: (user) => wallet.balances(user.siteId, user.id, user.currency) });
  const responsibleGaming = createResponsibleGamingService(db, {
    revokeAllSessions: (userId) => auth.revokeAllSessions(userId),
    depositedSince: (userId, since, executor) => cashier.depositedSince(userId, since, executor),
  });
  const storage = createStorageService(db);
  const auth = createAuthService({
    db,
    accounts,
    rateLimits,
    findActiveExclusion: (userId) => responsibleGaming.activeExclusion(userId),
    // Random per installation and kept in the database, as the unsubscribe key: never in the repository.
    deviceKey: () => storage.getOrCreate('system', 'trusted_device_key', () => randomBytes(32).toString('hex')),
  });
  const content = createContentService(db);
  const sites = createSiteService(db);
  const siteSecrets = createSiteSecrets(options.siteSecrets ?? {});
  const findSite = async (siteId: string) => (await sites.listSites()).find((site) => site.id === siteId);
  const siteSettings = async (siteId: string) => (await sites.listSites()).find((site) => site.id === siteId)?.settings ?? {};
  const jobs = createJobService(db, options.jobs);
  const payments = createPaymentProviders({
    db,
    jobs,
    siteSettings: async (siteId) => (await findSite(siteId))?.settings,
    // Only a demo site may use the sandbox, and only with the demo's published secret.
    sandboxSecret: async (siteId) => {
      const site = await findSite(siteId);
      return site && isPspSandboxSite(site) ? siteSecrets.secretOf(site, 'PSP_SANDBOX') : undefined;
    },
  });
  /** Payment providers by name; the cashier looks one up per payment method. */
  const paymentProviders = payments.providers;
  const games = createGamesService({ db, content });
  // Every bet of every game passes the intake: bonuses, tournaments and jackpots attach to its hooks.
  const roundIntake = createRoundIntake({
    wallet,
    findUser: (uid) => accounts.findUser(uid),
    activeExclusion: (uid) => responsibleGaming.activeExclusion(uid),
  });
  const bonuses = createBonusService({ db, wallet, siteSettings, siteSettingsIn: (tx, siteId) => sites.settingsIn(tx, siteId) });
  // Casino stakes draw on the wagered bonus once real money is spent; its wagering counts in the bet's transaction.
  roundIntake.fundWith(bonuses.funding);
  const freespins = createFreespinsService({
    db,
    wallet,
    intake: roundIntake,
    games,
    findUser: (uid) => accounts.findUser(uid),
    creditWinToBonus: bonuses.creditFreespinWin,
  });
  const gameRounds = createGameRoundsService({
    db,
    wallet,
    intake: roundIntake,
    games,
    freespins,
    jurisdiction: async (siteId) => gamesJurisdiction(await siteSettings(siteId)),
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
  // Sports tickets: placed against the feed store's prices, staked through the round intake or a betting bonus.
  const tickets = createTicketBook({
    db,
    intake: roundIntake,
    markets: storeMarketSource,
    describeLegs,
    bettingBonuses: bonuses.betting,
    siteLimits: async (siteId, currency) => sportsbookLimits(await siteSettings(siteId), currency),
    inPlayDelayMs: options.sportsbook?.inPlayDelayMs ?? 0,
  });
  const cashbacks = createCashbackService({
    db,
    wallet,
    bonuses,
    siteSettings,
    allSiteSettings: async () => Object.fromEntries((await sites.listSites()).map((site) => [site.id, site.settings])),
    enqueue: (kind, payload, options) => jobs.enqueue(kind, payload, options),
  });
  const cashier = createCashierService({
    db,
    wallet,
    accounts,
    content,
    responsibleGaming: () => responsibleGaming,
    findProvider: (name) => paymentProviders.get(name),
    bonuses,
  });
  return {
    wallet,
    /** The ledger invariants of architecture §5, checked on demand (backoffice, ledger:check). */
    checkLedger: () => checkLedger(db),
    roundIntake,
    cashier,
    paymentProviders,
    payments,
    jobs,
    responsibleGaming,
    messaging: createMessagingService(db, options.messaging),
    oneTimeSecrets: createOneTimeSecrets(db),
    verification: createVerificationService(db, accounts),
    sites,
    /** Every site's secrets: the published demo values on a demo site, the environment's elsewhere. */
    siteSecrets,
    content,
    storage,
    analytics: createAnalyticsService(db),
    rateLimits,
    accounts,
    auth,
    social: createSocialService({ db, accounts }),
    liveGames: createLiveGamesService({
      db,
      wallet,
      intake: roundIntake,
      games,
      sites,
      findUser: (uid) => accounts.findUser(uid),
      ...options.liveGames,
      config: options.liveGames?.config,
    }),
    providerWallet: createProviderWalletService({
      db,
      wallet,
      intake: roundIntake,
      games,
      findUser: (uid) => accounts.findUser(uid),
      activeExclusion: (uid) => responsibleGaming.activeExclusion(uid),
      providers: options.providers ?? [DEMO_PROVIDER],
    }),
    games,
    freespins,
    loyalty,
    bonuses,
    cashbacks,
    banners: createBannerService({ content }),
    popups: createPopupService({ content, depositCount: (userId) => cashier.depositCount(userId) }),
    gameHistory: createGameHistoryService({
      db,
      jobs,
      rateLimits,
      games,
      freespinRoundIds: (ids) => freespins.paidRoundIds(ids),
    }),
    gameRounds,
    // The odds feed's store and the offer; each applied message's settlements reach the tickets in its transaction.
    sportsbook: createSportsbookService({
      db,
      livenessTimeoutMs: options.sportsbook?.livenessTimeoutMs,
      onEffects: (tx, eventId, effects) => tickets.onMarketEffects(tx, eventId, effects),
    }),
    tickets,
    statefulRounds: createStatefulRoundsService({
      db,
      wallet,
      intake: roundIntake,
      games,
      rounds: gameRounds,
      abandonAfterMs: options.openRoundTimeoutMs,
      activeExclusion: (uid) => responsibleGaming.activeExclusion(uid),
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
