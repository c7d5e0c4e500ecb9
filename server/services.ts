/** Every module's service, built once per process around one database. */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database, DatabaseHandle } from './db/client';
import { createPlayerRowsCache } from './db/player-rows-cache';
import { createSiteService, createSiteSecrets, isPspSandboxSite } from './modules/sites';
import { createContentService } from './modules/content';
import { createStorageService } from './modules/storage';
import { createAnalyticsService } from './modules/analytics';
import { createRateLimitService } from './modules/rate-limit';
import { createAccountService, createOneTimeSecrets, type UserRow } from './modules/account';
import { createAuthService } from './modules/auth';
import { createMessagingService, type MessagingOptions } from './modules/messaging';
import { createVerificationService } from './modules/verification';
import { createResponsibleGamingService } from './modules/responsible-gaming';
import { createSocialService } from './modules/social';
import {
  checkLedger,
  createBalanceChangeTeller,
  createDebts,
  createSharedBalances,
  createWalletService,
  debtPolicyOf,
} from './modules/wallet';
import { createCashierService } from './modules/cashier';
import { createJobService, type JobServiceOptions } from './modules/jobs';
import { createPaymentProviders } from './modules/payments';
import { createGamesService } from './modules/games';
import { createGameLaunchService, type AggregatorTarget } from './modules/game-launch';
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

/** Only the safety net: a change reaches the player-rows cache by notification at once (issue 12). */
const PLAYER_ROWS_MAX_AGE_MS = 30_000;
/**
 * The safety net of balances and the answers made from them: a change reaches them by notification
 * at once, but the one for a shared round is sent after its commit, which a crash in between loses.
 */
const BALANCES_MAX_AGE_MS = 5_000;
const PLAYER_ROWS_MAX_ENTRIES = 50_000;
/** Fewer than the rows: each holds a whole answer, and a session may ask with any parameters it likes. */
const KEPT_ANSWERS_MAX_ENTRIES = 5_000;
/**
 * How long the next shared call (rounds, a provider's money) waits, at most, for the players the
 * last call answered (issue 12, call-sharing.ts). Ten players in a loop come back 1–3 ms after
 * their answer: with no wait they split into groups taken in turn (two calls of five on PGlite,
 * 3.5 rounds a call on PostgreSQL), each paying a call's fixed cost; with 2 ms they share calls
 * of 7–9 (docs/performance.md).
 */
const SHARED_CALL_GATHER_MS = 2;

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
  /**
   * This process is the database's only user (PGlite, embedded): the players' balances, written
   * only through this process's wallet, are kept in memory between its writes (issue 12).
   */
  isOnlyProcess?: boolean;
  /**
   * Every change of a player's balances reaches this process as it commits: the caller listens for
   * the database's cache changes (boot.listenForCacheChanges, migration 0031) before it serves. The
   * balances are then kept in memory here too, where other processes write them as well (issue 12).
   */
  hearsBalanceChanges?: boolean;
  /** How other processes are told what this one's writes changed, after their commit (DatabaseHandle.notify). */
  notify?: DatabaseHandle['notify'];
  /** The job queue's database listener (boot passes DatabaseHandle.listen): enqueues wake workers. */
  jobs?: JobServiceOptions;
  /** The game aggregator of the external titles, when known at start (else gameLaunch.connect later; none: they are hidden). */
  aggregator?: AggregatorTarget;
  /** How long the aggregator's health answer is kept (ms). */
  aggregatorHealthTtlMs?: number;
}

export function createServices(db: Database, options: ServiceOptions = {}) {
  const rateLimits = createRateLimitService(db);
  // Answers of a player's own reads, made from the caches below and dropped with them (api/kept-answers.ts).
  const keptAnswers = createPlayerRowsCache({ maxAgeMs: BALANCES_MAX_AGE_MS, maxEntries: KEPT_ANSWERS_MAX_ENTRIES });
  const dependents = [keptAnswers];
  // Balances kept in memory only where every write to them passes through this process's wallet,
  // or is told to it by the database: else a kept balance could miss another process's transfer.
  const playerBalances =
    options.isOnlyProcess || options.hearsBalanceChanges
      ? createPlayerRowsCache({ maxAgeMs: BALANCES_MAX_AGE_MS, maxEntries: PLAYER_ROWS_MAX_ENTRIES, dependents })
      : undefined;
  // Where other processes keep balances too, they are told of the writes the database leaves to us.
  const balanceChanges = options.isOnlyProcess ? undefined : createBalanceChangeTeller(options.notify ?? notifyThrough(db));
  const wallet = createWalletService(db, {
    onPlayerBalancesWritten: (userIds, { isToldByDatabase }) => {
      userIds.forEach((userId) => playerBalances?.forgetPlayer(userId));
      if (!isToldByDatabase) balanceChanges?.tell(userIds);
    },
  });
  // Players' debts: a rollback takes back a payout the player spent; the next deposit repays it first.
  const debts = createDebts(wallet, db);
  // What every signed-in request reads about its player, kept until the database says it changed.
  const playerRows = createPlayerRowsCache({ maxAgeMs: PLAYER_ROWS_MAX_AGE_MS, maxEntries: PLAYER_ROWS_MAX_ENTRIES, dependents });
  // Read from the database, one statement for the requests that ask together: where nothing is kept
  // (every time), or on PostgreSQL when a balance is not kept yet (many players' first pages at once).
  const sharedBalances = options.isOnlyProcess ? undefined : createSharedBalances(wallet, { lanes: 2 });
  const balancesOf = (user: UserRow) =>
    sharedBalances ? sharedBalances(user.siteId, user.id, user.currency) : wallet.balances(user.siteId, user.id, user.currency);
  const accounts = createAccountService(db, {
    balancesOf: (user) =>
      playerBalances
        ? playerBalances.get(`balances:${user.siteId}:${user.id}:${user.currency}`, () => balancesOf(user), {
            ownerOf: () => user.id,
          })
        : balancesOf(user),
    playerRows,
  });
  const responsibleGaming = createResponsibleGamingService(db, {
    playerRows,
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
    playerRows,
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
  // External titles are listed while the aggregator serves them (its health answer, cached).
  const games = createGamesService({ db, content, playerRows, hostedExternalTitles: () => gameLaunch.hostedTitles() });
  // Every bet of every game passes the intake: bonuses, tournaments and jackpots attach to its hooks.
  const roundIntake = createRoundIntake({
    wallet,
    findUser: (uid) => accounts.findUserForPlay(uid),
    activeExclusion: (uid) => responsibleGaming.activeExclusionForPlay(uid),
  });
  const bonuses = createBonusService({ db, wallet, siteSettings, siteSettingsIn: (tx, siteId) => sites.settingsIn(tx, siteId) });
  // Casino stakes draw on the wagered bonus once real money is spent; its wagering counts in the bet's transaction.
  roundIntake.fundWith(bonuses.funding);
  const freespins = createFreespinsService({
    db,
    wallet,
    intake: roundIntake,
    games,
    findUser: (uid) => accounts.findUserForPlay(uid),
    creditWinToBonus: bonuses.creditFreespinWin,
  });
  const gameRounds = createGameRoundsService({
    db,
    wallet,
    intake: roundIntake,
    games,
    freespins,
    jurisdiction: async (siteId) => gamesJurisdiction(await siteSettings(siteId)),
    // The embedded database has one connection: a second call in flight would only wait for it
    // with its rounds already chosen, while one lane lets them all join the next call.
    roundSharing: { lanes: options.isOnlyProcess ? 1 : 2, gatherMs: SHARED_CALL_GATHER_MS },
  });
  const loyalty = createLoyaltyService({
    db,
    playerRows,
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
    debts,
    // Read in the feed's transaction: PGlite has one connection.
    debtPolicy: async (tx, siteId) => debtPolicyOf(await sites.settingsIn(tx, siteId)),
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
    debts,
  });
  const providerWallet = createProviderWalletService({
    db,
    wallet,
    intake: roundIntake,
    games,
    findUser: (uid) => accounts.findUserForPlay(uid),
    activeExclusion: (uid) => responsibleGaming.activeExclusionForPlay(uid),
    providers: options.providers ?? [DEMO_PROVIDER],
    sharing: { lanes: options.isOnlyProcess ? 1 : 2, gatherMs: SHARED_CALL_GATHER_MS },
  });
  const gameLaunch = createGameLaunchService({ providerWallet, healthTtlMs: options.aggregatorHealthTtlMs });
  if (options.aggregator) gameLaunch.connect(options.aggregator);
  return {
    wallet,
    /** What signed-in requests read about their player; dropped on change (boot, the API dispatcher). */
    playerRows,
    /** Answers of players' own reads, kept for their session (api/kept-answers.ts). */
    keptAnswers,
    /**
     * Balances are kept in memory, and answers made from them may be kept (api/kept-answers.ts):
     * this process writes them all or hears every change (ServiceOptions.hearsBalanceChanges).
     */
    areBalancesKept: playerBalances !== undefined,
    /** Other processes told of the balances this one's shared rounds and provider money wrote (wallet/balance-changes.ts). */
    balanceChanges,
    /**
     * These players' balances changed (undefined: anyone's) in another process: told by the
     * database (boot.listenForCacheChanges). This process's own writes the wallet forgets itself.
     */
    forgetBalances: (userIds?: readonly number[]) => {
      if (userIds) userIds.forEach((userId) => playerBalances?.forgetPlayer(userId));
      else playerBalances?.invalidate();
    },
    /** Players' debts (wallet/debts.ts): listed and written off from the back office. */
    debts,
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
      findUser: (uid) => accounts.findUserForPlay(uid),
      ...options.liveGames,
      config: options.liveGames?.config,
    }),
    providerWallet,
    gameLaunch,
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
      fakenames: (ids) => accounts.fakenamesOf(ids),
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
      activeExclusion: (uid) => responsibleGaming.activeExclusionForPlay(uid),
    }),
  };
}

export type Services = ReturnType<typeof createServices>;

/** Without the handle's own notifier (services made for a test or a bench): a statement through the pool. */
function notifyThrough(db: Database): DatabaseHandle['notify'] {
  return async (channel, payload) => {
    await db.execute(sql`SELECT pg_notify(${channel}, ${payload})`);
  };
}
