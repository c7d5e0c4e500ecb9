/**
 * Game history and its CSV export (issue 5; spec §7 games.getHistory, createhistoryexportrequest,
 * gethistoryexportrequest).
 *
 * The history is the signed-in player's real-money rounds, live-table bets and rounds at external
 * providers (issue 15), newest
 * first (demo rounds are play money and stay in the game's own recall). Each source module answers
 * the query over its own tables in one row shape: a page is their union, ordered and paged by the
 * database; an export merges the sources walked by id. An export is a request row that the job queue turns
 * into a CSV kept in the database, so any process can serve the download; only its owner can
 * download it (server/web/history-export.ts). A site turns exports off with
 * is_game_history_export_enabled; requests are rate-limited and a player has at most one export
 * being made at a time.
 */
import { and, count as countOf, desc, eq, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import { ApiError } from '#common/errors';
import type { Locale } from '#common/locale';
import { minorToAmount, money } from '#common/money';
import type { Database } from '../../db/client';
import { inTransaction } from '../../db/retry';
import type { GamesService } from '../games';
import { playerRoundsHistory, type PlayerHistoryRow, type PlayerRoundsFilter } from '../game-rounds';
import { playerLiveBetsHistory } from '../live-games';
import { playerProviderRoundsHistory } from '../provider-wallet';
import type { JobHandler, JobService } from '../jobs';
import type { RateLimitService } from '../rate-limit';
import { csvLine } from './csv';
import { createBigWins } from './big-wins';
import { gameDisplayName } from '#common/games-contract';
import { gameHistoryExports, type GameHistoryExportRow } from './tables';
import { HISTORY_PAGE_DEFAULT, HISTORY_PAGE_MAX } from '#common/contract/games';
import type { GameHistoryItem as HistoryItem, HistoryExportView as ExportView } from '#common/contract';

export { HISTORY_PAGE_DEFAULT, HISTORY_PAGE_MAX };
export type { ExportView, HistoryItem };

/** Rows one export holds at most; a longer history is cut (is_truncated) and can be exported by date range. */
export const EXPORT_MAX_ROWS = 100_000;
const EXPORT_BATCH = 1_000;
export const EXPORT_JOB = 'game-history.export';
/** Export requests a player may make per window. */
export const EXPORT_RATE_LIMIT = { max: 5, windowMs: 60 * 60_000 };

export interface HistoryPlayer {
  siteId: string;
  userId: number;
  locale: Locale;
}

export interface HistoryFilter {
  sysname?: string;
  dateFrom?: Date;
  dateTo?: Date;
}

export interface GameHistoryDeps {
  db: Database;
  jobs: Pick<JobService, 'enqueue'>;
  rateLimits: Pick<RateLimitService, 'consume'>;
  games: Pick<GamesService, 'listGames'>;
  /** Which rounds a free spin paid for (freespins service). */
  freespinRoundIds: (roundIds: number[]) => Promise<Set<number>>;
  /** Players' fake names by uid (account service), for the anonymised big wins. */
  fakenames: (userIds: readonly number[]) => Promise<Map<number, string>>;
}

export const exportDownloadPath = (id: number | string) => `/platform/history-export/${id}.csv`;

function exportView(row: GameHistoryExportRow): ExportView {
  return {
    id: String(row.id),
    status: row.status,
    sysname: row.sysname,
    date_from: row.dateFrom?.toISOString() ?? null,
    date_to: row.dateTo?.toISOString() ?? null,
    row_count: row.rowCount,
    is_truncated: row.isTruncated,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    download_url: row.status === 'ready' ? exportDownloadPath(row.id) : null,
  };
}

function netMinor(row: PlayerHistoryRow, isFreespin: boolean): bigint {
  return row.payoutMinor - (isFreespin ? 0n : row.stakeMinor);
}

export const CSV_HEADER = [
  'round_id',
  'played_at_utc',
  'game',
  'sysname',
  'status',
  'currency',
  'stake',
  'payout',
  'net',
  'free_spin',
  'server_seed_hash',
  'client_seed',
  'nonce',
  // Added with the live tables (issue 15): which source a line is, and a live bet's own id.
  'kind',
  'bet_id',
] as const;

/** The list's id: a round's id, the live bet's or the provider round's (each numbered apart). */
const itemId = (row: PlayerHistoryRow) => (row.kind === 'round' ? String(row.id) : `${row.kind}-${row.id}`);

function csvRow(row: PlayerHistoryRow, gameName: string, isFreespin: boolean): string {
  return csvLine([
    row.roundId,
    row.createdAt.toISOString(),
    gameName,
    row.sysname,
    row.status,
    row.currency,
    minorToAmount(row.stakeMinor),
    minorToAmount(row.payoutMinor),
    minorToAmount(netMinor(row, isFreespin)),
    isFreespin ? 'yes' : 'no',
    row.serverSeedHash,
    row.clientSeed,
    row.nonce,
    row.kind,
    row.kind === 'round' ? '' : row.id,
  ]);
}

// Newest first; on the same instant in-house rounds, then provider rounds, then live bets, then the higher id.
const NEWEST_FIRST = [desc(sql.identifier('created_at')), desc(sql.identifier('kind')), desc(sql.identifier('id'))];
const isNewer = (a: PlayerHistoryRow, b: PlayerHistoryRow) =>
  a.createdAt.getTime() !== b.createdAt.getTime() ? a.createdAt > b.createdAt : a.kind !== b.kind ? a.kind > b.kind : a.id > b.id;

/** One source's rows newest first, fetched batch by batch below the last id seen (keyset). */
async function* walkSource(fetch: (beforeId: number | undefined) => Promise<PlayerHistoryRow[]>) {
  let beforeId: number | undefined;
  for (;;) {
    const rows = await fetch(beforeId);
    yield* rows;
    if (rows.length < EXPORT_BATCH) return;
    beforeId = rows.at(-1)?.id;
  }
}

/** Two sources, each newest first, merged into one newest-first stream. */
async function* mergeNewestFirst(a: AsyncGenerator<PlayerHistoryRow>, b: AsyncGenerator<PlayerHistoryRow>) {
  let [left, right] = await Promise.all([a.next(), b.next()]);
  while (!left.done || !right.done) {
    if (right.done || (!left.done && isNewer(left.value, right.value))) {
      yield left.value;
      left = await a.next();
    } else {
      yield right.value;
      right = await b.next();
    }
  }
}

export function createGameHistoryService(deps: GameHistoryDeps) {
  const { db } = deps;

  async function gameNames(siteId: string, locale: Locale): Promise<Map<string, string>> {
    return new Map((await deps.games.listGames(siteId, locale)).map((game) => [game.sysname, game.name]));
  }

  function filterOf(player: { siteId: string; userId: number }, filter: HistoryFilter): PlayerRoundsFilter {
    return {
      siteId: player.siteId,
      userId: player.userId,
      sysname: filter.sysname,
      dateFrom: filter.dateFrom,
      dateTo: filter.dateTo,
    };
  }

  /** Which of the rows' in-house rounds a free spin paid for (live bets never are). */
  async function freespinsOf(rows: readonly PlayerHistoryRow[]): Promise<Set<number>> {
    const roundIds = rows.filter((row) => row.kind === 'round').map((row) => row.id);
    return roundIds.length === 0 ? new Set() : deps.freespinRoundIds(roundIds);
  }
  const isFreespinOf = (row: PlayerHistoryRow, freespins: Set<number>) => row.kind === 'round' && freespins.has(row.id);

  /** Every source's rows for a filter, as one union to order and page in the database. */
  const historyUnion = (filter: PlayerRoundsFilter) =>
    unionAll(playerRoundsHistory(db, filter), playerLiveBetsHistory(db, filter), playerProviderRoundsHistory(db, filter));

  async function findOwn(player: { siteId: string; userId: number }, id: number): Promise<GameHistoryExportRow | undefined> {
    const [row] = await db
      .select()
      .from(gameHistoryExports)
      .where(
        and(
          eq(gameHistoryExports.id, id),
          eq(gameHistoryExports.siteId, player.siteId),
          eq(gameHistoryExports.userId, player.userId),
        ),
      );
    return row;
  }

  /** Writes the CSV of an export request; a request already made (or failed) is left as it is. */
  async function makeExport(id: number): Promise<void> {
    const [request] = await db.select().from(gameHistoryExports).where(eq(gameHistoryExports.id, id));
    if (!request || request.status !== 'pending') return;
    const names = await gameNames(request.siteId, 'en');
    const filter = filterOf(request, {
      sysname: request.sysname ?? undefined,
      dateFrom: request.dateFrom ?? undefined,
      dateTo: request.dateTo ?? undefined,
    });
    const rows = mergeNewestFirst(
      mergeNewestFirst(
        walkSource((beforeId) =>
          playerRoundsHistory(db, filter, beforeId)
            .orderBy(desc(sql.identifier('id')))
            .limit(EXPORT_BATCH),
        ),
        walkSource((beforeId) =>
          playerLiveBetsHistory(db, filter, beforeId)
            .orderBy(desc(sql.identifier('id')))
            .limit(EXPORT_BATCH),
        ),
      ),
      walkSource((beforeId) =>
        playerProviderRoundsHistory(db, filter, beforeId)
          .orderBy(desc(sql.identifier('id')))
          .limit(EXPORT_BATCH),
      ),
    );
    const parts: string[] = [csvLine(CSV_HEADER)];
    let batch: PlayerHistoryRow[] = [];
    const writeBatch = async () => {
      const freespins = await freespinsOf(batch);
      for (const row of batch) parts.push(csvRow(row, names.get(row.sysname) ?? row.sysname, isFreespinOf(row, freespins)));
      batch = [];
    };
    let rowCount = 0;
    let isTruncated = false;
    for await (const row of rows) {
      if (rowCount >= EXPORT_MAX_ROWS) {
        isTruncated = true;
        break;
      }
      batch.push(row);
      rowCount += 1;
      if (batch.length >= EXPORT_BATCH) await writeBatch();
    }
    await writeBatch();
    await db
      .update(gameHistoryExports)
      .set({ status: 'ready', csv: parts.join(''), rowCount, isTruncated, completedAt: new Date() })
      .where(and(eq(gameHistoryExports.id, id), eq(gameHistoryExports.status, 'pending')));
  }

  /** The job queue's handler: at least once, so makeExport is idempotent; the last failed attempt marks the request failed. */
  const exportJob: JobHandler = async (payload, job) => {
    const id = Number((payload as { id?: unknown } | null)?.id);
    if (!Number.isSafeInteger(id) || id <= 0) return;
    try {
      await makeExport(id);
    } catch (error) {
      if (job.attempt >= job.maxAttempts) {
        await db
          .update(gameHistoryExports)
          .set({
            status: 'failed',
            error: error instanceof Error ? error.message.slice(0, 500) : 'failed',
            completedAt: new Date(),
          })
          .where(and(eq(gameHistoryExports.id, id), eq(gameHistoryExports.status, 'pending')));
      }
      throw error;
    }
  };

  // Names as the player's tiles show them (the game-like record rule), in the page's language.
  const recentBigWins = createBigWins({
    db,
    fakenames: deps.fakenames,
    gameNames: async (siteId, locale) =>
      new Map((await deps.games.listGames(siteId, locale)).map((game) => [game.sysname, gameDisplayName(game)])),
  });

  return {
    exportJob,
    makeExport,
    /** games.getWinners: the site's recent big wins, anonymised (big-wins.ts). */
    recentBigWins,

    /** games.getHistory: one page of the player's real-money rounds, live bets and provider rounds, newest first. */
    async getHistory(
      player: HistoryPlayer,
      filter: HistoryFilter,
      offset: number,
      count: number,
    ): Promise<{ items: HistoryItem[]; total: number }> {
      const filtered = filterOf(player, filter);
      const rows = await historyUnion(filtered)
        .orderBy(...NEWEST_FIRST)
        .offset(offset)
        .limit(Math.min(Math.max(1, count), HISTORY_PAGE_MAX));
      const [counted] = await db.select({ n: countOf() }).from(historyUnion(filtered).as('history'));
      const total = Number(counted?.n ?? 0);
      const names = await gameNames(player.siteId, player.locale);
      const freespins = await freespinsOf(rows);
      const items = rows.map((row): HistoryItem => {
        const isFreespin = isFreespinOf(row, freespins);
        return {
          id: itemId(row),
          kind: row.kind,
          round_id: String(row.roundId),
          sysname: row.sysname,
          game_name: names.get(row.sysname) ?? row.sysname,
          engine: row.engine,
          status: row.status,
          stake: money(row.stakeMinor, row.currency),
          payout: money(row.payoutMinor, row.currency),
          net: money(netMinor(row, isFreespin), row.currency),
          is_freespin: isFreespin,
          created_at: row.createdAt.toISOString(),
          settled_at: row.settledAt?.toISOString() ?? null,
        };
      });
      return { items, total };
    },

    /**
     * games.createhistoryexportrequest: queues an export of the player's rounds (optionally one
     * game, a date range). While one is being made, asking again returns that one.
     */
    async createExport(player: HistoryPlayer & { isEnabled: boolean }, filter: HistoryFilter): Promise<ExportView> {
      if (!player.isEnabled)
        throw new ApiError('AccessDeniedException', 'Game history export is not available on this site', {
          reason: 'history_export_disabled',
        });
      const [pending] = await db
        .select()
        .from(gameHistoryExports)
        .where(
          and(
            eq(gameHistoryExports.siteId, player.siteId),
            eq(gameHistoryExports.userId, player.userId),
            eq(gameHistoryExports.status, 'pending'),
          ),
        )
        .orderBy(desc(gameHistoryExports.id))
        .limit(1);
      if (pending) return exportView(pending);
      await deps.rateLimits.consume({ key: `history-export:${player.siteId}:${player.userId}`, ...EXPORT_RATE_LIMIT });
      return inTransaction(db, async (tx) => {
        const [created] = await tx
          .insert(gameHistoryExports)
          .values({
            siteId: player.siteId,
            userId: player.userId,
            sysname: filter.sysname ?? null,
            dateFrom: filter.dateFrom ?? null,
            dateTo: filter.dateTo ?? null,
          })
          .returning();
        if (!created) throw new Error('the export request could not be recorded');
        // The job exists only if the request does.
        await deps.jobs.enqueue(
          EXPORT_JOB,
          { id: created.id },
          { key: `${EXPORT_JOB}:${created.id}`, maxAttempts: 5, executor: tx },
        );
        return exportView(created);
      });
    },

    /** games.gethistoryexportrequest: one request by id, or the player's latest (null when none). */
    async getExport(player: { siteId: string; userId: number }, id?: number): Promise<ExportView | null> {
      if (id !== undefined) {
        const row = await findOwn(player, id);
        // Another player's request and an unknown id look the same.
        if (!row)
          throw new ApiError('InvalidParameterException', 'Invalid parameter: id', { field: 'id', errorType: 'wrongField' });
        return exportView(row);
      }
      const [latest] = await db
        .select()
        .from(gameHistoryExports)
        .where(and(eq(gameHistoryExports.siteId, player.siteId), eq(gameHistoryExports.userId, player.userId)))
        .orderBy(desc(gameHistoryExports.id))
        .limit(1);
      return latest ? exportView(latest) : null;
    },

    /** The file of a ready export, for its owner only; undefined for anyone else or while not ready. */
    async findFile(
      player: { siteId: string; userId: number },
      id: number,
    ): Promise<{ fileName: string; csv: string } | undefined> {
      const row = await findOwn(player, id);
      if (!row || row.status !== 'ready' || row.csv === null) return undefined;
      return { fileName: `game-history-${row.id}.csv`, csv: row.csv };
    },
  };
}

export type GameHistoryService = ReturnType<typeof createGameHistoryService>;
