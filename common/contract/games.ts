/**
 * games.* (spec §7 and issue 5): the catalogue and likes, the player's game history and its
 * export, the jurisdiction's pace rules, the in-house rounds (single-request and stateful) with
 * their provably fair seeds, and the live tables.
 */
import { z } from 'zod';
import type { LiveRouletteSpin } from '../games/live-roulette';
import { GAME_SORTS, type GameCategoryView, type GameLikes, type GameProviderView, type GamesPage } from '../games-contract';
import type { Money } from '../money';
import { method, type Done } from './method';

export type * from '../games-contract';

/** Most items a comma list (sysnames, types, tags, providers, fields) or a page of games.get holds. */
export const GAMES_LIST_MAX = 300;
export const HISTORY_PAGE_DEFAULT = 4;
export const HISTORY_PAGE_MAX = 100;
/** Rounds games.getRounds recalls by default and at most. */
export const RECALL_DEFAULT = 10;
export const RECALL_MAX = 100;

export type GameMode = 'real' | 'demo';

/** games.launch: where the game frame goes. */
export interface GameLaunch {
  url: string;
}

/**
 * Where a history entry comes from: an in-house round of one player, a bet at a shared live table,
 * or a round at an external provider through the game aggregator (issue 15).
 */
export type GameHistoryKind = 'round' | 'live' | 'provider';

/** One row of games.getHistory: a real-money round or live-table bet. */
export interface GameHistoryItem {
  /** Unique in the list: the round's id, or `live-{betId}` for a live-table bet. */
  id: string;
  kind: GameHistoryKind;
  /** The round: the in-house round, or the live table's shared round the bet was in. */
  round_id: string;
  sysname: string;
  game_name: string;
  engine: string;
  status: string;
  stake: Money;
  payout: Money;
  /** Payout less stake (negative: lost); a free spin's stake was not the player's, so it counts 0. */
  net: Money;
  is_freespin: boolean;
  created_at: string;
  settled_at: string | null;
}

/** One row of games.getWinners (issue 15): a recent big win of a real-money round, with no player named. */
export interface GameWinnerView {
  /** The round's id, for a list key. */
  id: string;
  sysname: string;
  game_name: string;
  /** The first two letters of the player's fake name and stars, or null when the player chose none. */
  player: string | null;
  payout: Money;
  /** Payout ÷ stake, rounded down to a tenth. */
  multiplier: number;
  settled_at: string;
}

export interface GameWinnersPage {
  items: GameWinnerView[];
}

/** Wins games.getWinners lists by default and at most. */
export const WINNERS_DEFAULT = 12;
export const WINNERS_MAX = 50;

export interface GameHistoryPage {
  items: GameHistoryItem[];
  total: number;
}

export type HistoryExportStatus = 'pending' | 'ready' | 'failed';

export interface HistoryExportView {
  id: string;
  status: HistoryExportStatus;
  sysname: string | null;
  date_from: string | null;
  date_to: string | null;
  row_count: number | null;
  is_truncated: boolean;
  created_at: string;
  completed_at: string | null;
  /** Where the owner downloads the file (signed in), once ready. */
  download_url: string | null;
}

/** games.getSettings: the site's jurisdiction rules for in-house play. */
export interface GameSettings {
  min_spin_duration_ms: number;
  autoplay: {
    is_allowed: boolean;
    max_rounds: number;
    round_options: number[];
    is_loss_limit_required: boolean;
    is_single_win_limit_required: boolean;
  };
}

export interface SeedsView {
  server_seed_hash: string;
  client_seed: string;
  /** The nonce of the next round. */
  nonce: number;
}

/** games.rotateSeeds: the new pair, and the old one revealed. */
export interface RotatedSeeds extends SeedsView {
  previous: { server_seed: string; server_seed_hash: string; client_seed: string; rounds: number };
}

export interface RoundView {
  id: string;
  sysname: string;
  engine: string;
  mode: GameMode;
  status: string;
  stake: Money;
  payout: Money;
  bet: unknown;
  outcome: unknown;
  server_seed_hash: string;
  client_seed: string;
  nonce: number;
  created_at: string;
  settled_at: string | null;
}

export interface PlayResult {
  round: RoundView;
  /** True when the request id was played before: the first round, nothing moved now. */
  is_replay: boolean;
  /** The balance the round was played on (main for real, fun for demo), after it; null for an anonymous visitor. */
  balance: Money | null;
  /** The casino bonus balance after a real round that a bonus took part in (issue 13); absent otherwise. */
  bonus_balance?: Money;
}

/** games.verifyRound: `is_verified` is null until the player rotates the seed pair. */
export interface RoundVerification {
  round: RoundView;
  server_seed: string | null;
  is_revealed: boolean;
  recomputed: unknown;
  is_verified: boolean | null;
}

/** games.start and games.act: the round of mines or blackjack after the request. */
export interface StatefulResult {
  round: RoundView;
  /** The table as the player may see it: publicMinesView / publicBlackjackView, bigints as strings. */
  game: Record<string, unknown>;
  /** True when the request id was seen before: its first result, nothing moved now. */
  is_replay: boolean;
  /** The balance played on (main for real, fun for demo) after the request; null for an anonymous visitor. */
  balance: Money | null;
  /** The casino bonus balance after a real request while the player holds bonus money (issue 13); absent otherwise. */
  bonus_balance?: Money;
}

/** games.getOpenRound: the player's open round of a game (a reloaded page resumes it), or nulls. */
export interface OpenRound {
  round: RoundView | null;
  game: Record<string, unknown> | null;
  balance: Money | null;
}

export type LiveEngine = 'crash' | 'live-roulette';
export type LivePhase = 'betting' | 'running' | 'result';
export type LiveResult = { crash_point: number } | { pocket: number; color: LiveRouletteSpin['color'] };

export interface LiveRoundView {
  id: string;
  round_no: number;
  sysname: string;
  engine: LiveEngine;
  phase: LivePhase;
  server_seed_hash: string;
  client_seed: string;
  /** The nonce of the round's stream. */
  nonce: number;
  betting_opens_at: string;
  betting_closes_at: string;
  /** Roulette: when the ball stops. Crash: null until the crash (it would tell the crash point). */
  result_at: string | null;
  next_at: string | null;
  /** Crash while running: the multiplier now, in hundredths. */
  multiplier: number | null;
  result: LiveResult | null;
  /** Revealed with the result. */
  server_seed: string | null;
  bets_count: number;
  /**
   * Whether the round's bets are settled: written a moment after the result shows (later on a
   * busy server), so the table's events stream sends the state again when it is, and a player's
   * page then asks for its bets once.
   */
  settled: boolean;
}

export interface LiveBetView {
  id: string;
  round_id: string;
  round_no: number;
  sysname: string;
  mode: GameMode;
  status: string;
  stake: Money;
  payout: Money;
  bet: unknown;
  auto_cash_out: string | null;
  cash_out: string | null;
  created_at: string;
}

/** A live table as the events stream and games.getLiveState tell it. */
export interface LiveState {
  table: { sysname: string; engine: LiveEngine };
  server_time: string;
  round: LiveRoundView | null;
  /** The last settled rounds, newest first, with their results and revealed seeds. */
  history: LiveRoundView[];
  /** The caller's bets in the current round. */
  my_bets: LiveBetView[];
}

/** games.getLiveState: with `mode`, a signed-in player's balance of that mode comes along. */
export interface LiveStateWithBalance extends LiveState {
  balance: Money | null;
}

/** games.placeLiveBet and games.cashOut. */
export interface LiveBetResult {
  bet: LiveBetView;
  is_replay: boolean;
  balance: Money | null;
}

export interface LiveBetWithRound extends LiveBetView {
  round: LiveRoundView;
}

export interface LiveRoundVerification {
  round: LiveRoundView;
  is_revealed: boolean;
  is_verified: boolean | null;
}

const list = z.string().max(4000).optional();
const sysname = z.string().min(1).max(64);
const requestId = z.string().regex(/^[A-Za-z0-9_:.-]{1,64}$/);
const numericId = z.string().regex(/^\d{1,15}$/);
const mode = z.enum(['real', 'demo']).default('real');
const lowerCase = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);
const signedIn = { requiresUser: true } as const;

/** `2026-11-23` (a whole UTC day) or a full ISO moment. */
const date = z
  .string()
  .max(40)
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/)
  .optional();
const historyFilter = { sysname: z.string().min(1).max(64).optional(), date_from: date, date_to: date };

const catalogue = {
  'games.get': method<GamesPage>()({
    params: z.object({
      offset: z.coerce.number().int().min(0).max(100_000).default(0),
      count: z.coerce.number().int().min(1).max(GAMES_LIST_MAX).default(15),
      fields: list,
      sort_options: z.preprocess(lowerCase, z.enum(GAME_SORTS)).default('priority'),
      order: z.preprocess(lowerCase, z.enum(['asc', 'desc'])).default('asc'),
      sysnames: list,
      /** JSON text: {"favorites": true} lists the player's likes, {"category": "new"} one catalogue category. */
      options: z.string().max(1000).optional(),
      query: z.string().max(100).optional(),
      types: list,
      tags: list,
      providers: list,
    }),
  }),
  'games.getCategories': method<GameCategoryView[]>()({ params: z.object({}) }),
  'games.getProviders': method<GameProviderView[]>()({ params: z.object({ fields: list, types: list }) }),
  'games.getLikes': method<GameLikes>()({ params: z.object({}), ...signedIn }),
  /** The site's recent big wins from settled real-money rounds, newest first (issue 15: the home rail). */
  'games.getWinners': method<GameWinnersPage>()({
    params: z.object({ count: z.coerce.number().int().min(1).max(WINNERS_MAX).default(WINNERS_DEFAULT) }),
  }),
  'games.addLike': method<Done>()({ params: z.object({ sysname }), ...signedIn }),
  'games.removeLike': method<Done>()({ params: z.object({ sysname }), ...signedIn }),
};

const history = {
  'games.getHistory': method<GameHistoryPage>()({
    params: z.object({
      offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
      count: z.coerce.number().int().min(1).max(HISTORY_PAGE_MAX).default(HISTORY_PAGE_DEFAULT),
      ...historyFilter,
    }),
    ...signedIn,
  }),
  'games.createhistoryexportrequest': method<HistoryExportView>()({ params: z.object(historyFilter), ...signedIn }),
  /** The request `id`, or the latest one (null when there is none). */
  'games.gethistoryexportrequest': method<HistoryExportView | null>()({
    params: z.object({ id: numericId.optional() }),
    ...signedIn,
  }),
};

const rounds = {
  'games.getSettings': method<GameSettings>()({ params: z.object({}) }),
  'games.getSeeds': method<SeedsView>()({ params: z.object({}) }),
  'games.setClientSeed': method<SeedsView>()({ params: z.object({ client_seed: z.string().max(200) }) }),
  'games.rotateSeeds': method<RotatedSeeds>()({ params: z.object({ client_seed: z.string().max(200).optional() }) }),
  'games.play': method<PlayResult>()({
    params: z.object({
      sysname,
      mode,
      /** The bet as JSON text, per engine: {"stake":"1.00","direction":"under","target":"50.00"}, {"bets":[{"kind":"red","stake":"1.00"}]}, {"stake":"1.00"}. */
      bet: z.string().min(2).max(20_000),
      request_id: requestId,
      /** Play this round as one free spin of the player's pack (freespins.get). */
      freespin_pack_id: z
        .string()
        .regex(/^[1-9]\d{0,14}$/)
        .optional(),
    }),
  }),
  'games.getRounds': method<RoundView[]>()({
    params: z.object({ sysname, count: z.coerce.number().int().min(1).max(RECALL_MAX).default(RECALL_DEFAULT) }),
  }),
  'games.verifyRound': method<RoundVerification>()({ params: z.object({ round_id: numericId }) }),
  'games.start': method<StatefulResult>()({
    params: z.object({
      sysname,
      mode,
      /** The opening bet as JSON text: mines {"stake":"1.00","mines":3}, blackjack {"stake":"1.00"}. */
      bet: z.string().min(2).max(2_000),
      request_id: requestId,
    }),
  }),
  'games.act': method<StatefulResult>()({
    params: z.object({
      round_id: numericId,
      /** mines: reveal, cashout; blackjack: hit, stand, double, split, insurance, no-insurance. */
      action: z.string().min(1).max(32),
      /** JSON text: mines reveal {"cell":12} (0 … 24, 5 × row + column); empty for the others. */
      params: z.string().max(500).optional(),
      request_id: requestId,
    }),
  }),
  'games.getOpenRound': method<OpenRound>()({ params: z.object({ sysname }) }),
  /**
   * An external studio's title (issue 15): the URL of its game client at the game aggregator, for
   * the game frame. Real money needs a signed-in player; a title no aggregator serves now is an
   * InvalidParameterException naming sysname.
   */
  'games.launch': method<GameLaunch>()({
    params: z.object({ sysname, mode: z.enum(['real', 'demo']).default('demo') }),
  }),
};

const live = {
  'games.getLiveState': method<LiveStateWithBalance>()({
    params: z.object({ sysname, mode: z.enum(['real', 'demo']).optional() }),
  }),
  'games.placeLiveBet': method<LiveBetResult>()({
    params: z.object({
      sysname,
      mode,
      /** The bet as JSON text: crash {"stake":"1.00","auto_cash_out":"2.00"}; live roulette {"bets":[{"kind":"red","stake":"1.00"}]}. */
      bet: z.string().min(2).max(20_000),
      request_id: requestId,
    }),
  }),
  'games.cashOut': method<LiveBetResult>()({ params: z.object({ bet_id: numericId }) }),
  'games.getLiveBets': method<LiveBetWithRound[]>()({
    params: z.object({ sysname, count: z.coerce.number().int().min(1).max(100).default(10) }),
  }),
  'games.verifyLiveRound': method<LiveRoundVerification>()({ params: z.object({ round_id: numericId }) }),
};

export const gamesContract = { ...catalogue, ...history, ...rounds, ...live };
