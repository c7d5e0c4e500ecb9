/**
 * Property (issue 14 "Tests and benchmark": "a property test that drives the simulator through
 * many matches with random bets, duplicates, reorders, cancels and rollbacks (also concurrent, on
 * PostgreSQL) and checks the ledger and that every bet ends settled once").
 *
 * Each run plays a few simulated matches through the product's feed store (the simulator's own
 * messages, with its late corrections and rollbacks of provisional results), and adds what real
 * feeds also send: a market cancelled in play (sometimes rolled back later), a confirmed
 * settlement rolled back and sent again, and a late correction of a confirmed result (then the
 * original once more). The streams are interleaved, messages are swapped with their neighbours
 * and sent twice; players bet singles and doubles on whatever is open between messages. After
 * the last message:
 * - the ledger is sound (architecture §5 invariants, players' debts included);
 * - every ticket is settled, and its wager record shows it entered a settled state exactly once
 *   more than it was rolled back out of one;
 * - what the ledger moved for each ticket is its payout less its stake, exactly;
 * - the markets' exposure is back to zero.
 * The concurrent variant applies each match's stream and the bets at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { amountToMinor } from '#common/money';
import { createTestApp, type TestApp } from '../../../../test/api-harness';
import { testDatabaseKinds } from '../../../../test/databases';
import { fundPlayer, hostPlayer } from '../../../../test/host-player';
import type { Gambler } from '../../round-intake';
import { checkLedger } from '../../wallet';
import { parseFeedMessage, type FeedMessageInput } from '../feed/messages';
import type { Fixture } from '../feed/fixtures';
import { simulatedMatchFeed } from '../simulator/match-feed';
import { matchRng } from '../simulator/script';
import { sportsbookEvents, sportsbookMarkets, sportsbookOutcomes } from '../tables';
import { SETTLED_STATUSES, sportMarketExposure, sportTicketChanges, sportTickets } from './tables';

const KICK_OFF = Date.UTC(2026, 6, 1, 18);

interface MatchPlan {
  goals: [number, number];
  /** A market cancelled in play at this share of the match, rolled back later or not. */
  cancel?: { at: number; rolledBack: boolean };
  rollbackConfirmed: boolean;
  correctConfirmed: boolean;
}

interface BetPlan {
  at: number;
  double: boolean;
  pick: number;
  player: number;
  stake: number;
}

/** A share of the way through (fc.double leans to the ends; bets and disorder belong all along). */
const share = (max = 1) => fc.integer({ min: 0, max: 1000 }).map((n) => (n / 1000) * max);

const matchPlan = fc.record({
  goals: fc.tuple(fc.double({ min: 0.6, max: 2.4, noNaN: true }), fc.double({ min: 0.6, max: 2.4, noNaN: true })),
  cancel: fc.option(fc.record({ at: fc.double({ min: 0.1, max: 0.8, noNaN: true }), rolledBack: fc.boolean() }), {
    nil: undefined,
  }),
  rollbackConfirmed: fc.boolean(),
  correctConfirmed: fc.boolean(),
}) as fc.Arbitrary<MatchPlan>;

const betPlan = fc.record({
  at: share(0.9),
  double: fc.boolean(),
  pick: fc.nat(),
  player: fc.nat({ max: 3 }),
  stake: fc.integer({ min: 1, max: 20 }),
});

const runPlan = fc.record({
  seed: fc.nat(),
  matches: fc.array(matchPlan, { minLength: 2, maxLength: 2 }),
  bets: fc.array(betPlan, { minLength: 4, maxLength: 10 }),
  swaps: fc.array(share(), { maxLength: 10 }),
  duplicates: fc.array(share(), { maxLength: 6 }),
});

type Msg = Record<string, unknown> & { type: string; event_id: string; sequence: number };

function fixture(id: string): Fixture {
  return {
    event_id: id,
    sport: 'football',
    category: { id: 'prop:c', name: 'Propland' },
    tournament: { id: 'prop:t', name: 'Property League' },
    competitors: [
      { id: `${id}:home`, name: 'Home' },
      { id: `${id}:away`, name: 'Away' },
    ],
    start_time: KICK_OFF,
  };
}

/** The same market's outcomes with their results turned round: a wrong confirmed result the feed later corrects. */
function turned(settlement: Msg): Msg {
  const markets = settlement.markets as { outcomes: { result: number }[] }[];
  const [first, ...rest] = markets;
  if (!first) return settlement;
  const outcomes = first.outcomes.map((outcome, index) => ({
    ...outcome,
    result: first.outcomes[(index + 1) % first.outcomes.length]!.result,
  }));
  return { ...settlement, markets: [{ ...first, outcomes }, ...rest] };
}

/** One match's stream: the simulator's messages with the plan's extra cancels, rollbacks and corrections, numbered again. */
function streamOf(eventId: string, plan: MatchPlan, seed: number): Msg[] {
  const base = simulatedMatchFeed(matchRng(`prop-${seed}`, eventId.length), {
    producer: 'sim',
    eventId,
    goals: { home: plan.goals[0], away: plan.goals[1] },
    marginBp: 500,
    kickOff: KICK_OFF,
    correctionRate: 0.5,
    rollbackRate: 0.5,
  }).map((timed) => timed.message as unknown as Msg);
  const confirmedAt = base.findIndex((message) => message.type === 'bet_settlement' && message.certainty === 'confirmed');
  const confirmed = base[confirmedAt]!;
  const markets = (confirmed.markets as { type: string; specifiers: Record<string, string> }[]).map(({ type, specifiers }) => ({
    type,
    specifiers,
  }));
  const stream = [...base];
  if (plan.cancel) {
    const at = 2 + Math.floor(plan.cancel.at * (confirmedAt - 3));
    const market = markets[seed % markets.length]!;
    stream.splice(at, 0, { type: 'bet_cancel', event_id: eventId, sequence: 0, markets: [market] } as Msg);
    if (plan.cancel.rolledBack)
      stream.splice(confirmedAt, 0, { type: 'rollback_bet_cancel', event_id: eventId, sequence: 0, markets: [market] } as Msg);
  }
  if (plan.rollbackConfirmed)
    stream.push({ type: 'rollback_bet_settlement', event_id: eventId, sequence: 0, markets } as Msg, confirmed);
  if (plan.correctConfirmed) stream.push(turned(confirmed), confirmed);
  return stream.map((message, index) => ({
    ...message,
    producer: 'sim',
    sequence: index + 1,
    timestamp: (message.timestamp as number | undefined) ?? KICK_OFF + 120 * 60_000,
  }));
}

/** A deterministic interleaving of the matches' streams that keeps each one's order. */
function interleave(streams: Msg[][], seed: number): Msg[] {
  const cursors = streams.map(() => 0);
  const merged: Msg[] = [];
  let state = seed + 1;
  while (merged.length < streams.reduce((sum, stream) => sum + stream.length, 0)) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const open = streams.map((stream, index) => index).filter((index) => cursors[index]! < streams[index]!.length);
    const pick = open[state % open.length]!;
    merged.push(streams[pick]![cursors[pick]!++]!);
  }
  return merged;
}

/** Neighbours swapped and some messages sent twice: the store must put them back in order and drop the repeats. */
function disorder(messages: Msg[], swaps: number[], duplicates: number[]): Msg[] {
  const out = [...messages];
  for (const share of swaps) {
    const at = Math.floor(share * (out.length - 1));
    [out[at], out[at + 1]] = [out[at + 1]!, out[at]!];
  }
  for (const share of duplicates) {
    const at = Math.min(out.length - 1, Math.floor(share * out.length));
    out.splice(Math.min(out.length, at + 3), 0, out[at]!);
  }
  return out;
}

describe.each(testDatabaseKinds())('sports tickets property on %s', (kind) => {
  let t: TestApp;
  let run = 0;
  /** What the runs exercised: the property says nothing about bets never placed or rollbacks never sent. */
  const seen = { tickets: 0, reopened: 0 };

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  async function players(count: number): Promise<Gambler[]> {
    return Promise.all(
      Array.from({ length: count }, async () => {
        const { uid, siteId, currency } = await hostPlayer(t, '127.0.0.1');
        await fundPlayer(t, { uid, siteId, currency }, '5000.00');
        return { siteId, uid, visitorId: '', locale: 'en', siteCurrency: currency } satisfies Gambler;
      }),
    );
  }

  /** The selections open for betting now on these events. */
  async function openSelections(eventIds: string[]) {
    return t.db
      .select({
        eventId: sportsbookOutcomes.eventId,
        marketKey: sportsbookOutcomes.marketKey,
        outcomeId: sportsbookOutcomes.outcomeId,
        odds: sportsbookOutcomes.odds,
      })
      .from(sportsbookOutcomes)
      .innerJoin(
        sportsbookMarkets,
        and(eq(sportsbookMarkets.eventId, sportsbookOutcomes.eventId), eq(sportsbookMarkets.key, sportsbookOutcomes.marketKey)),
      )
      .innerJoin(sportsbookEvents, eq(sportsbookEvents.id, sportsbookOutcomes.eventId))
      .where(
        and(
          inArray(sportsbookOutcomes.eventId, eventIds),
          eq(sportsbookOutcomes.active, true),
          eq(sportsbookMarkets.status, 'active'),
          inArray(sportsbookEvents.status, ['not_started', 'live']),
        ),
      )
      .orderBy(sportsbookOutcomes.eventId, sportsbookOutcomes.marketKey, sportsbookOutcomes.outcomeId);
  }

  /** A bet as planned on what is open now; refusals (a price that moved, a market that closed) are part of the game. */
  async function bet(bettors: Gambler[], eventIds: string[], plan: BetPlan, key: string): Promise<number | undefined> {
    const open = (await openSelections(eventIds)).filter((row) => row.odds !== null && row.odds >= 10_100n);
    if (open.length === 0) return undefined;
    const first = open[plan.pick % open.length]!;
    const others = open.filter((row) => row.eventId !== first.eventId);
    const legs = plan.double && others.length > 0 ? [first, others[(plan.pick >> 3) % others.length]!] : [first];
    try {
      const placed = await t.services.tickets.place(bettors[plan.player % bettors.length]!, {
        selections: legs.map((leg) => ({
          eventId: leg.eventId,
          marketKey: leg.marketKey,
          outcomeId: leg.outcomeId,
          oddsUnits: leg.odds!,
        })),
        betType: { kind: legs.length === 1 ? 'single' : 'multiple' },
        stakePerLineMinor: amountToMinor(`${plan.stake}.00`),
        oddsChange: 'any',
        requestId: key,
        channel: 'web',
      });
      return placed.ticket.id;
    } catch {
      return undefined;
    }
  }

  const apply = (message: Msg) => t.services.sportsbook.feed.apply(parseFeedMessage(message as unknown as FeedMessageInput));

  async function checkInvariants(ticketIds: number[], eventIds: string[]) {
    const report = await checkLedger(t.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
    if (ticketIds.length === 0) return;
    const tickets = await t.db.select().from(sportTickets).where(inArray(sportTickets.id, ticketIds));
    const changes = await t.db.select().from(sportTicketChanges).where(inArray(sportTicketChanges.ticketId, ticketIds));
    const moved = (await t.db.execute(sql`
      SELECT t.reference, sum(p.amount_minor)::text AS net
      FROM ledger_transfers t JOIN ledger_postings p ON p.transfer_id = t.id
      JOIN ledger_accounts a ON a.id = p.account_id AND a.owner_kind = 'player'
      WHERE t.reference IN (${sql.join(
        ticketIds.map((id) => sql`${`sport:${id}`}`),
        sql`, `,
      )})
      GROUP BY t.reference`)) as unknown as { rows: { reference: string; net: string }[] };
    const netOf = new Map(moved.rows.map((row) => [row.reference, BigInt(row.net)]));
    const settled = new Set<string>(SETTLED_STATUSES);
    seen.tickets += tickets.length;
    seen.reopened += changes.filter((change) => change.status === 'open' && change.reason.includes('rollback')).length;
    for (const ticket of tickets) {
      expect(settled.has(ticket.status), `ticket ${ticket.id} is ${ticket.status}`).toBe(true);
      // The wager record: into a settled state once more than it was rolled back out of one.
      const record = changes.filter((change) => change.ticketId === ticket.id).sort((a, b) => a.id - b.id);
      let entered = 0;
      let left = 0;
      record.forEach((change, index) => {
        const before = record[index - 1]?.status;
        if (settled.has(change.status) && !settled.has(before ?? 'open')) entered++;
        if (change.status === 'open' && before !== undefined && settled.has(before)) left++;
      });
      expect(entered - left, `ticket ${ticket.id}: ${record.map((change) => change.status).join(' → ')}`).toBe(1);
      expect(netOf.get(`sport:${ticket.id}`) ?? 0n).toBe(ticket.payoutMinor - ticket.totalStakeMinor);
    }
    const exposure = await t.db
      .select({ total: sql<string>`coalesce(sum(${sportMarketExposure.exposureMinor}), 0)::text` })
      .from(sportMarketExposure)
      .where(inArray(sportMarketExposure.eventId, eventIds));
    expect(exposure[0]?.total).toBe('0');
  }

  it('in order per event, one message at a time: every bet settles once and the ledger is sound', async () => {
    const bettors = await players(4);
    await fc.assert(
      fc.asyncProperty(runPlan, async (plan) => {
        const id = run++;
        const eventIds = plan.matches.map((_match, index) => `prop:${kind}:${id}:${index}`);
        for (const eventId of eventIds) await t.services.sportsbook.feed.upsertFixture(fixture(eventId));
        const streams = plan.matches.map((match, index) => streamOf(eventIds[index]!, match, plan.seed + index));
        const messages = disorder(interleave(streams, plan.seed), plan.swaps, plan.duplicates);
        const bets = [...plan.bets].sort((a, b) => a.at - b.at);
        const ticketIds: number[] = [];
        let next = 0;
        for (const [index, message] of messages.entries()) {
          await apply(message);
          while (next < bets.length && bets[next]!.at * messages.length <= index) {
            const placed = await bet(bettors, eventIds, bets[next]!, `prop-${kind}-${id}-${next}`);
            if (placed !== undefined) ticketIds.push(placed);
            next++;
          }
        }
        await checkInvariants(ticketIds, eventIds);
      }),
      { numRuns: 2, seed: 1414, endOnFailure: true },
    );
  }, 300_000);

  it('concurrently: the matches’ streams and the bets at once — every bet settles once and the ledger is sound', async () => {
    const bettors = await players(4);
    await fc.assert(
      fc.asyncProperty(runPlan, async (plan) => {
        const id = run++;
        const eventIds = plan.matches.map((_match, index) => `prop:${kind}:c${id}:${index}`);
        for (const eventId of eventIds) await t.services.sportsbook.feed.upsertFixture(fixture(eventId));
        const streams = plan.matches.map((match, index) =>
          disorder(streamOf(eventIds[index]!, match, plan.seed + index), plan.swaps, plan.duplicates),
        );
        const ticketIds: number[] = [];
        let betsDone = 0;
        const feeds = streams.map(async (stream) => {
          for (const message of stream) await apply(message);
        });
        // Bettors play while the feeds run: each bet waits for a share of the first stream to go out.
        const betting = (async () => {
          const first = streams[0]!;
          let applied = 0;
          for (const [index, planned] of [...plan.bets].sort((a, b) => a.at - b.at).entries()) {
            while (applied < planned.at * first.length) {
              await new Promise((resolve) => setImmediate(resolve));
              applied++;
            }
            const placed = await bet(bettors, eventIds, planned, `prop-${kind}-c${id}-${index}`);
            if (placed !== undefined) ticketIds.push(placed);
            betsDone++;
          }
        })();
        await Promise.all([...feeds, betting]);
        expect(betsDone).toBe(plan.bets.length);
        await checkInvariants(ticketIds, eventIds);
      }),
      { numRuns: 2, seed: 1515, endOnFailure: true },
    );
    // The runs (fixed seeds) placed bets and rolled settled ones back, or they proved little.
    expect(seen.tickets).toBeGreaterThan(0);
    expect(seen.reopened).toBeGreaterThan(0);
  }, 300_000);
});
