/**
 * The sportsbook's money under load (issue 14 "Tests and benchmark": "`bench/` measures tickets
 * placed per second with 50 players while odds change 100 times a second, and the time to settle
 * 100,000 bets of one market, on PGlite and on PostgreSQL"; architecture §7: speed lives in
 * bench/, never in a timed test).
 *
 *   npm run bench:sportsbook                                   both databases, 50 players, 8 s, 100,000 bets
 *   npm run bench:sportsbook -- --only pglite --seconds 5 --bets 20000
 *   BENCH_DATABASE_URL=postgres://user@host/db npm run bench:sportsbook
 *
 * For each database (a PGlite folder in a temporary directory, or a scratch PostgreSQL database
 * bench_sportsbook_<random> dropped afterwards) it applies the migrations and the seed, and runs,
 * in this process, through the product's services:
 * 1. Placement: a simulated match's fixture and pre-match prices go through the feed store; then
 *    for --seconds a feeder applies an odds change of the match's main markets every 1/--odds-rate
 *    of a second (real feed messages through the store, batched per event), while
 *    --players players each place one single after another (tickets.place, the product's
 *    idempotent call, odds change "any") on a 1X2 or total outcome. It reports tickets placed per
 *    second, p50/p99 placement latency, refusals, and the odds changes asked, committed within the
 *    run per second, and left uncommitted at its end (the backlog). The feeder hands each message
 *    over at the feed's pace, as the feed consumer does, and the store batches what arrives meanwhile.
 * 1b. Feed capacity (the headroom): --burst odds changes of one event handed over at once, and the
 *    odds changes committed per second until the last one.
 * 2. Settlement: --bets singles on one market of another match, staked by 1,000 players. They are
 *    written in bulk (ticket, leg, wager-record entry and stake transfer per bet, in batches:
 *    placing them one by one is what part 1 measures), then one confirmed bet_settlement message
 *    goes through the feed store and the time until it has committed — every winning bet paid in
 *    its own ledger transfer — is measured.
 * Afterwards the ledger check runs: the ledger must be sound. It prints a table and the JSON, and
 * writes bench/results/sportsbook.json (ignored by git). Exit status 1 when the ledger is not sound
 * or a bet was left unsettled.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { amountToMinor } from '#common/money';
import { marketKey } from '#common/sportsbook/catalogue';
import type { DatabaseHandle } from '../server/db/client';
import { inTransaction } from '../server/db/retry';
import { sportMarketExposure, sportTicketChanges, sportTicketLegs, sportTickets, users } from '../server/db/schema';
import { checkLedger, house, move, player, type TransferInput } from '../server/modules/wallet';
import { stakeTransfer } from '../server/modules/round-intake';
import { matchAnnouncement, parseFeedMessage, type FeedMessageInput } from '../server/modules/sportsbook';
import { percentile } from './database-bench';
import { RESULTS_DIR, round2, seededSite, withScratchDatabase, type DatabaseKind, type Services, type Site } from './http-rounds';

const USAGE =
  'npm run bench:sportsbook -- [--seconds 8] [--players 50] [--odds-rate 100] [--bets 100000] [--burst 2000] [--only pglite|postgres]';
const KICK_OFF = Date.now() + 86_400_000;
const BULK = 1000;

interface Options {
  seconds: number;
  players: number;
  oddsRate: number;
  bets: number;
  burst: number;
  only?: DatabaseKind;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '8' },
      players: { type: 'string', default: '50' },
      'odds-rate': { type: 'string', default: '100' },
      bets: { type: 'string', default: '100000' },
      burst: { type: 'string', default: '2000' },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const number = (name: string, text: string) => {
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer\n${USAGE}`);
    return value;
  };
  if (values.only !== undefined && values.only !== 'pglite' && values.only !== 'postgres') throw new Error(USAGE);
  return {
    seconds: number('seconds', values.seconds),
    players: number('players', values.players),
    oddsRate: number('odds-rate', values['odds-rate']),
    bets: number('bets', values.bets),
    burst: number('burst', values.burst),
    only: values.only,
  };
}

type Msg = Record<string, unknown> & { type: string; sequence: number; timestamp: number };
type MarketMsg = {
  type: string;
  specifiers: Record<string, string>;
  status: string;
  outcomes: { id: string; odds: string; active: boolean }[];
};

/** A match's fixture and pre-match prices through the store; returns its main markets (1X2 and the totals) as the feed sent them. */
async function announce(services: Services, eventId: string): Promise<MarketMsg[]> {
  const messages = matchAnnouncement({
    producer: 'bench',
    eventId,
    goals: { home: 1.5, away: 1.2 },
    marginBp: 500,
    kickOff: KICK_OFF,
    correctionRate: 0,
    rollbackRate: 0,
  }).map((timed) => timed.message as unknown as Msg);
  await services.sportsbook.feed.upsertFixture({
    event_id: eventId,
    sport: 'football',
    category: { id: 'bench:c', name: 'Benchland' },
    tournament: { id: 'bench:t', name: 'Bench League' },
    competitors: [
      { id: `${eventId}:h`, name: 'Home' },
      { id: `${eventId}:a`, name: 'Away' },
    ],
    start_time: KICK_OFF,
  });
  for (const message of messages) await services.sportsbook.feed.apply(parseFeedMessage(message as unknown as FeedMessageInput));
  const prices = messages.find((message) => message.type === 'odds_change')!;
  return (prices.markets as MarketMsg[]).filter((market) => market.type === '1x2' || market.type === 'total');
}

/** Main-market prices moved a little, as live odds move. */
function movedPrices(markets: MarketMsg[], step: number): MarketMsg[] {
  return markets.map((market) => ({
    ...market,
    outcomes: market.outcomes.map((outcome, index) => {
      const odds = Number(outcome.odds) * (1 + (((step + index) % 5) - 2) / 200);
      return { ...outcome, odds: Math.max(1.02, odds).toFixed(2) };
    }),
  }));
}

async function createPlayers(handle: DatabaseHandle, services: Services, site: Site, count: number): Promise<number[]> {
  const run = randomBytes(3).toString('hex');
  const ids: number[] = [];
  for (let start = 0; start < count; start += BULK) {
    const rows = await handle.db
      .insert(users)
      .values(
        Array.from({ length: Math.min(BULK, count - start) }, (_, i) => ({
          siteId: site.id,
          login: `bench-sport-${run}-${start + i}@example.com`,
          currency: site.defaultCurrency,
          locale: 'en',
        })),
      )
      .returning({ id: users.id });
    const deposits: TransferInput[] = rows.map(({ id }) => ({
      siteId: site.id,
      userId: id,
      kind: 'deposit',
      currency: site.defaultCurrency,
      amountMinor: amountToMinor('1000000.00'),
      legs: move(house('psp_clearing', id), player(id, 'main'), amountToMinor('1000000.00')),
      idempotencyKey: `bench-sport-${run}-${id}`,
      actor: 'psp:bench',
      reason: 'bench deposit',
    }));
    await services.wallet.transferAll(deposits);
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}

interface PlacementStats {
  players: number;
  seconds: number;
  tickets: number;
  ticketsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  refused: number;
  /** The feed's pace asked (--odds-rate), the odds changes sent at it, and those committed within the run. */
  oddsAskedPerSecond: number;
  oddsChanges: number;
  oddsChangesPerSecond: number;
  oddsApplied: number;
  oddsAppliedPerSecond: number;
  /** Sent but not yet committed when the run ended: a store that keeps up leaves only the last batch. */
  oddsBacklog: number;
}

interface FeedCapacity {
  messages: number;
  seconds: number;
  appliedPerSecond: number;
}

/**
 * The headroom: --burst odds changes of one event handed to the store at once (as after a
 * reconnection), and the time until the last is committed.
 */
async function feedCapacity(services: Services, count: number): Promise<FeedCapacity> {
  const eventId = `bench:burst:${randomBytes(3).toString('hex')}`;
  const markets = await announce(services, eventId);
  const messages = Array.from({ length: count }, (_, i) =>
    parseFeedMessage({
      type: 'odds_change',
      producer: 'bench',
      event_id: eventId,
      sequence: 3 + i,
      timestamp: Date.now(),
      markets: movedPrices(markets, i),
    } as unknown as FeedMessageInput),
  );
  const begin = performance.now();
  const results = await Promise.all(messages.map((message) => services.sportsbook.feed.apply(message)));
  const seconds = (performance.now() - begin) / 1000;
  if (results.some((result) => result.outcome !== 'applied')) throw new Error('a burst message was not applied');
  return { messages: count, seconds: round2(seconds), appliedPerSecond: round2(count / seconds) };
}

async function placement(handle: DatabaseHandle, services: Services, site: Site, options: Options): Promise<PlacementStats> {
  const eventId = `bench:place:${randomBytes(3).toString('hex')}`;
  const markets = await announce(services, eventId);
  const selections = markets.flatMap((market) =>
    market.outcomes.map((outcome) => ({
      eventId,
      marketKey: marketKey(market.type, market.specifiers),
      outcomeId: outcome.id,
    })),
  );
  const bettors = await createPlayers(handle, services, site, options.players);
  const deadline = performance.now() + options.seconds * 1000;
  // The announcement was messages 1 and 2: the store applies an event's messages in order, without gaps.
  let sequence = 3;
  let oddsChanges = 0;
  let oddsApplied = 0;
  const applying: Promise<void>[] = [];
  const feeder = (async () => {
    const interval = 1000 / options.oddsRate;
    let next = performance.now();
    while (performance.now() < deadline) {
      const message = {
        type: 'odds_change',
        producer: 'bench',
        event_id: eventId,
        sequence: sequence++,
        timestamp: Date.now(),
        markets: movedPrices(markets, sequence),
      };
      // As the feed consumer does: handed over at the feed's pace, not after the previous commit;
      // the store applies what arrived meanwhile in one batch. Counted when committed in the window.
      applying.push(
        services.sportsbook.feed.apply(parseFeedMessage(message as unknown as FeedMessageInput)).then((result) => {
          if (result.outcome === 'applied' && performance.now() <= deadline) oddsApplied++;
        }),
      );
      oddsChanges++;
      next += interval;
      const wait = next - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    await Promise.all(applying);
  })();
  const latencies: number[] = [];
  let refused = 0;
  const started = performance.now();
  const players = bettors.map(async (uid, index) => {
    const who = { siteId: site.id, uid, visitorId: '', locale: 'en' as const, siteCurrency: site.defaultCurrency };
    for (let n = 0; performance.now() < deadline; n++) {
      const selection = selections[(index + n) % selections.length]!;
      const begin = performance.now();
      try {
        await services.tickets.place(who, {
          selections: [{ ...selection, oddsUnits: 20_000n }],
          betType: { kind: 'single' },
          stakePerLineMinor: amountToMinor('1.00'),
          oddsChange: 'any',
          requestId: `bench-${uid}-${n}`,
          channel: 'web',
        });
        latencies.push(performance.now() - begin);
      } catch {
        refused++;
      }
      // The next slip arrives as a new request would, on a later turn of the event loop: on PGlite
      // (in this process) back-to-back placements would otherwise starve the feeder's timer.
      await new Promise((resolve) => setImmediate(resolve));
    }
  });
  await Promise.all([...players, feeder]);
  const elapsed = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    players: options.players,
    seconds: round2(elapsed),
    tickets: latencies.length,
    ticketsPerSecond: round2(latencies.length / elapsed),
    p50Ms: round2(percentile(sorted, 0.5)),
    p99Ms: round2(percentile(sorted, 0.99)),
    refused,
    oddsAskedPerSecond: options.oddsRate,
    oddsChanges,
    oddsChangesPerSecond: round2(oddsChanges / elapsed),
    oddsApplied,
    oddsAppliedPerSecond: round2(oddsApplied / options.seconds),
    oddsBacklog: oddsChanges - oddsApplied,
  };
}

interface SettlementStats {
  bets: number;
  winners: number;
  writeSeconds: number;
  settleSeconds: number;
  betsSettledPerSecond: number;
  unsettled: number;
}

/** --bets singles on the 1X2 of one match, written in bulk as placement leaves them: ticket, leg, record entry, stake, exposure. */
async function writeBets(
  handle: DatabaseHandle,
  services: Services,
  site: Site,
  eventId: string,
  count: number,
  bettors: number[],
) {
  const outcomes = ['1', 'X', '2'];
  const currency = site.defaultCurrency;
  for (let start = 0; start < count; start += BULK) {
    const size = Math.min(BULK, count - start);
    await inTransaction(handle.db, async (tx) => {
      const tickets = await tx
        .insert(sportTickets)
        .values(
          Array.from({ length: size }, (_, i) => ({
            siteId: site.id,
            userId: bettors[(start + i) % bettors.length]!,
            currency,
            betType: { kind: 'single' as const },
            stakePerLineMinor: 100n,
            totalStakeMinor: 100n,
            potentialReturnMinor: 250n,
            status: 'open' as const,
            channel: 'bench',
            requestKey: `bench-settle-${start + i}`,
            requestHash: 'bench',
          })),
        )
        .returning({ id: sportTickets.id, userId: sportTickets.userId });
      await tx.insert(sportTicketLegs).values(
        tickets.map((ticket, i) => ({
          ticketId: ticket.id,
          position: 0,
          eventId,
          marketKey: '1x2',
          outcomeId: outcomes[(start + i) % 3]!,
          oddsUnits: 25_000n,
        })),
      );
      await tx
        .insert(sportTicketChanges)
        .values(tickets.map((ticket) => ({ ticketId: ticket.id, status: 'open' as const, reason: 'placed (bench)' })));
      await services.wallet.transferAll(
        tickets.map((ticket) =>
          stakeTransfer(
            {
              path: 'sportsbook',
              siteId: site.id,
              userId: ticket.userId,
              currency,
              mode: 'real',
              sysname: 'sportsbook',
              reference: `sport:${ticket.id}`,
              actor: `player:${ticket.userId}`,
            },
            { amountMinor: 100n, idempotencyKey: `sport:${ticket.id}:stake` },
          ),
        ),
        tx,
      );
    });
  }
  await handle.db
    .insert(sportMarketExposure)
    .values({ siteId: site.id, eventId, marketKey: '1x2', currency, exposureMinor: 250n * BigInt(count) });
}

async function settlement(handle: DatabaseHandle, services: Services, site: Site, options: Options): Promise<SettlementStats> {
  const eventId = `bench:settle:${randomBytes(3).toString('hex')}`;
  const markets = await announce(services, eventId);
  const bettors = await createPlayers(handle, services, site, 1000);
  const writeStart = performance.now();
  await writeBets(handle, services, site, eventId, options.bets, bettors);
  const writeSeconds = (performance.now() - writeStart) / 1000;
  const oneXtwo = markets.find((market) => market.type === '1x2')!;
  const message = {
    type: 'bet_settlement',
    producer: 'bench',
    event_id: eventId,
    sequence: 3,
    timestamp: Date.now(),
    certainty: 'confirmed',
    markets: [
      {
        type: '1x2',
        specifiers: {},
        outcomes: oneXtwo.outcomes.map((outcome) => ({
          id: outcome.id,
          result: outcome.id === '1' ? 1 : 0,
          void_factor: 0,
          dead_heat_factor: 1,
        })),
      },
    ],
  };
  const begin = performance.now();
  await services.sportsbook.feed.apply(parseFeedMessage(message as unknown as FeedMessageInput));
  const settleSeconds = (performance.now() - begin) / 1000;
  const [open] = await handle.db
    .select({ n: sql<number>`count(*)::int` })
    .from(sportTickets)
    .innerJoin(sportTicketLegs, eq(sportTicketLegs.ticketId, sportTickets.id))
    .where(and(eq(sportTicketLegs.eventId, eventId), eq(sportTickets.status, 'open')));
  return {
    bets: options.bets,
    winners: Math.ceil(options.bets / 3),
    writeSeconds: round2(writeSeconds),
    settleSeconds: round2(settleSeconds),
    betsSettledPerSecond: round2(options.bets / settleSeconds),
    unsettled: open?.n ?? -1,
  };
}

async function benchDatabase(kind: DatabaseKind, options: Options) {
  return withScratchDatabase(kind, 'bench-sportsbook', async (database) => {
    const handle = await database.open();
    try {
      const { services, site } = await seededSite(handle);
      console.error(`${kind}: placement, ${options.players} players, odds ${options.oddsRate}/s, ${options.seconds} s …`);
      const placed = await placement(handle, services, site, options);
      console.error(`${kind}: feed capacity, ${options.burst} odds changes at once …`);
      const capacity = await feedCapacity(services, options.burst);
      console.error(`${kind}: settlement of ${options.bets} bets …`);
      const settled = await settlement(handle, services, site, options);
      const ledger = await checkLedger(handle.db);
      return { database: kind, placement: placed, feedCapacity: capacity, settlement: settled, ledgerSound: ledger.isSound };
    } finally {
      await handle.close();
    }
  });
}

async function main() {
  const options = readOptions();
  const kinds: DatabaseKind[] = options.only ? [options.only] : ['pglite', 'postgres'];
  const results = [];
  for (const kind of kinds) {
    try {
      results.push(await benchDatabase(kind, options));
    } catch (error) {
      if (kind === 'postgres' && /ECONNREFUSED|connect/.test(String(error)))
        console.error('postgres: no server answers, skipped');
      else throw error;
    }
  }
  const report = { at: new Date().toISOString(), options, results };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'sportsbook.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
  console.log('');
  console.log(
    '| database | tickets/s (players) | p50 / p99 ms | refused | odds asked/s | odds applied/s | backlog | feed capacity/s | bets settled | settle s | bets/s | ledger |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of results) {
    const p = row.placement;
    const s = row.settlement;
    console.log(
      `| ${row.database} | ${p.ticketsPerSecond} (${p.players}) | ${p.p50Ms} / ${p.p99Ms} | ${p.refused} | ${p.oddsAskedPerSecond} | ${p.oddsAppliedPerSecond} | ${p.oddsBacklog} | ${row.feedCapacity.appliedPerSecond} | ${s.bets} | ${s.settleSeconds} | ${s.betsSettledPerSecond} | ${row.ledgerSound ? 'sound' : 'NOT SOUND'} |`,
    );
  }
  const failed = results.some((row) => !row.ledgerSound || row.settlement.unsettled !== 0);
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
