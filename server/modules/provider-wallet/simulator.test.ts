/**
 * A provider simulator (issue 5 "External providers": "a provider simulator in the tests plays
 * thousands of rounds with retries, duplicates and rollbacks against it"). Several players play
 * at once through the signed HTTP API; each round is a bet and then a win, a rollback, or
 * nothing, with random retries of the same request (also sent concurrently), duplicates with a
 * changed amount, rollbacks sent before their bet, rollbacks of wins and round ends. The
 * simulator keeps its own books from the answers: every OK answer must carry the balance it
 * expects, and at the end each player's ledger balance must equal them and the ledger must be
 * sound (architecture §5 invariants).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { checkLedger } from '../wallet';
import { fundedUser } from '../../../test/host-player';
import { ledgerTransfers } from '../../db/schema';
import { providerClient, type ProviderClient, type ProviderReply } from './provider-client';
import { DEMO_PROVIDER } from './providers';

const PLAYERS = 8;
const ROUNDS_PER_PLAYER = 260; // 2 080 rounds in all
const START_MINOR = 200_000n;
const SEED = Number(process.env.PROVIDER_SIM_SEED ?? 20261123);

/** mulberry32: a small seeded PRNG, so a failing run can be replayed with PROVIDER_SIM_SEED. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return { chance: (p: number) => next() < p, int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)) };
}

interface Tally {
  rounds: number;
  okBets: number;
  okWins: number;
  paidWins: number;
  rollbacks: number;
  earlyRollbacks: number;
  retries: number;
  duplicates: number;
  insufficient: number;
  winRollbacksRefused: number;
  roundEnds: number;
}

describe.each(testDatabaseKinds())('provider simulator on %s', (kind) => {
  let t: TestApp;
  let siteId: string;
  let currency: string;
  let client: ProviderClient;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const site = await t.services.sites.resolveSite('127.0.0.1');
    siteId = site.id;
    currency = site.defaultCurrency;
    client = providerClient((path, init) => t.request(path, init), DEMO_PROVIDER);
  });
  afterAll(() => t.close());

  it(
    'plays 2 000+ rounds with retries, duplicates, early and late rollbacks and concurrent players: every answer and every final balance equals the simulator’s books, and the ledger is sound',
    { timeout: 240_000 },
    async () => {
      const tally: Tally = {
        rounds: 0,
        okBets: 0,
        okWins: 0,
        paidWins: 0,
        rollbacks: 0,
        earlyRollbacks: 0,
        retries: 0,
        duplicates: 0,
        insufficient: 0,
        winRollbacksRefused: 0,
        roundEnds: 0,
      };
      const players: { uid: number; token: string; expected: bigint }[] = [];
      for (let index = 0; index < PLAYERS; index++) {
        const user = await fundedUser(t, { siteId, currency, amountMinor: START_MINOR, tag: `sim-${kind}-${index}` });
        const session = await t.services.providerWallet.openProviderSession(siteId, user.id, 'fox-fortune', currency);
        players.push({ uid: user.id, token: session.token, expected: START_MINOR });
      }

      async function playPlayer(index: number) {
        const random = prng(SEED + index);
        const who = players[index]!;
        const tag = `${kind}-p${index}`;
        const base = { token: who.token, player_id: String(who.uid), currency };
        const expectOk = (reply: ProviderReply, context: string) => {
          expect(reply.body, `${context} (seed ${SEED})`).toMatchObject({ status: 'OK', balance: Number(who.expected) });
        };
        /** Sends a request, and with some chance again (sequentially or at the same time): every copy answers alike. */
        async function sendWithRetries(action: string, body: Record<string, unknown>): Promise<ProviderReply> {
          const first = await (random.chance(0.05)
            ? Promise.all([client.call(action, body), client.call(action, body)]).then(([a, b]) => (expect(b).toEqual(a), a))
            : client.call(action, body));
          if (random.chance(0.08)) {
            tally.retries++;
            expect(await client.call(action, body)).toEqual(first);
          }
          return first;
        }

        for (let round = 0; round < ROUNDS_PER_PLAYER; round++) {
          tally.rounds++;
          const roundId = `${tag}-r${round}`;
          const betTx = `${tag}-b${round}`;
          // Now and then a bet above the balance, which must be refused with the balance.
          const betMinor = random.chance(0.03) ? Number(who.expected) + random.int(1, 100) : random.int(1, 3_000);
          const bet = { ...base, transaction_id: betTx, round_id: roundId, amount: betMinor };

          if (random.chance(0.04)) {
            // The provider timed out on the bet and rolled it back before the bet reached us.
            const early = await client.call('rollback', {
              ...base,
              transaction_id: `${tag}-x${round}`,
              round_id: roundId,
              reference_transaction_id: betTx,
            });
            expectOk(early, 'early rollback');
            const late = await client.call('bet', bet);
            expect(late.body).toMatchObject({ status: 'ERROR', code: 'TRANSACTION_ROLLED_BACK', balance: Number(who.expected) });
            tally.earlyRollbacks++;
            continue;
          }

          const placed = await sendWithRetries('bet', bet);
          if (placed.body.status === 'ERROR') {
            expect(placed.body, `bet refused (seed ${SEED})`).toMatchObject({
              code: 'INSUFFICIENT_FUNDS',
              balance: Number(who.expected),
            });
            expect(BigInt(betMinor)).toBeGreaterThan(who.expected);
            tally.insufficient++;
            continue;
          }
          who.expected -= BigInt(betMinor);
          expectOk(placed, 'bet');
          tally.okBets++;

          if (random.chance(0.05)) {
            tally.duplicates++;
            const changed = await client.call('bet', { ...bet, amount: betMinor + random.int(1, 50) });
            expect(changed.body).toMatchObject({ status: 'ERROR', code: 'DUPLICATE_TRANSACTION' });
          }

          if (random.chance(0.08)) {
            const rollback = await sendWithRetries('rollback', {
              ...base,
              transaction_id: `${tag}-rb${round}`,
              round_id: roundId,
              reference_transaction_id: betTx,
              ...(random.chance(0.5) ? { amount: betMinor } : {}),
            });
            who.expected += BigInt(betMinor);
            expectOk(rollback, 'rollback');
            tally.rollbacks++;
            if (random.chance(0.2)) {
              // The same bet rolled back under another id: reversed once only.
              expectOk(
                await client.call('rollback', {
                  ...base,
                  transaction_id: `${tag}-rc${round}`,
                  round_id: roundId,
                  reference_transaction_id: betTx,
                }),
                'second rollback',
              );
            }
            continue;
          }

          const winMinor = random.chance(0.4) ? random.int(0, Math.floor(betMinor * 4.75)) : 0;
          const winTx = `${tag}-w${round}`;
          const win = await sendWithRetries('win', { ...base, transaction_id: winTx, round_id: roundId, amount: winMinor });
          who.expected += BigInt(winMinor);
          expectOk(win, 'win');
          tally.okWins++;
          if (winMinor > 0) tally.paidWins++;

          if (random.chance(0.05)) {
            tally.duplicates++;
            const changed = await client.call('win', { ...base, transaction_id: winTx, round_id: roundId, amount: winMinor + 1 });
            expect(changed.body).toMatchObject({ status: 'ERROR', code: 'DUPLICATE_TRANSACTION' });
          }
          if (random.chance(0.02)) {
            const refused = await client.call('rollback', {
              ...base,
              transaction_id: `${tag}-rw${round}`,
              round_id: roundId,
              reference_transaction_id: winTx,
            });
            expect(refused.body).toMatchObject({ status: 'ERROR', code: 'ROLLBACK_NOT_ALLOWED', balance: Number(who.expected) });
            tally.winRollbacksRefused++;
          }
          if (random.chance(0.1)) {
            expectOk(await client.call('round-end', { ...base, round_id: roundId }), 'round end');
            const after = await client.call('bet', {
              ...base,
              transaction_id: `${tag}-after${round}`,
              round_id: roundId,
              amount: 1,
            });
            expect(after.body).toMatchObject({ status: 'ERROR', code: 'ROUND_ENDED' });
            tally.roundEnds++;
          }
        }
      }

      await Promise.all(players.map((_, index) => playPlayer(index)));

      // The books agree: each player's ledger balance is what the simulator computed from OK answers.
      for (const who of players) expect((await t.services.wallet.balances(siteId, who.uid, currency)).main).toBe(who.expected);
      const [moved] = await t.db
        .select({
          bets: sql<number>`count(*) FILTER (WHERE ${ledgerTransfers.kind} = 'provider_bet')::int`,
          wins: sql<number>`count(*) FILTER (WHERE ${ledgerTransfers.kind} = 'provider_win')::int`,
          rollbacks: sql<number>`count(*) FILTER (WHERE ${ledgerTransfers.kind} = 'provider_rollback')::int`,
        })
        .from(ledgerTransfers)
        .where(
          and(
            eq(ledgerTransfers.siteId, siteId),
            sql`${ledgerTransfers.userId} IN (${sql.join(
              players.map((who) => sql`${who.uid}`),
              sql`, `,
            )})`,
          ),
        );
      expect(moved).toEqual({ bets: tally.okBets, wins: tally.paidWins, rollbacks: tally.rollbacks });

      const report = await checkLedger(t.db);
      expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });

      // The run exercised what it claims to.
      expect(tally.rounds).toBeGreaterThanOrEqual(2_000);
      for (const [name, count] of Object.entries(tally)) expect(count, name).toBeGreaterThan(0);
      console.info(`provider simulator on ${kind} (seed ${SEED}): ${JSON.stringify(tally)}`);
    },
  );
});
