/**
 * Providers' bets and wins of several players in one statement (issue 12; shared-money.ts,
 * migration 0026) on both databases: each request is still all or nothing on its own
 * (architecture §5; docs/provider-wallet.md), answered with the balance after it, recorded once
 * under its transaction id; a refusal concerns its own request only; with a round hook attached
 * the transactional path plays and the hook sees the money; two processes on one PostgreSQL
 * sending the same players' requests move each one's money once and never overdraw.
 */
import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { minorToAmount } from '#common/money';
import { testDatabaseKinds } from '../../../test/databases';
import { fundedUser, fundPlayer } from '../../../test/host-player';
import { sideBySide } from '../../../test/side-by-side';
import { useSiteApp } from '../../../test/site-app';
import { openDatabase } from '../../db/client';
import { ledgerTransfers } from '../../db/schema';
import { createServices } from '../../services';
import type { RoundMoneyEvent } from '../round-intake';
import { checkLedger } from '../wallet';
import { providerRounds, providerTransactions } from './tables';

const GAME = 'fox-fortune';
const PROVIDER = 'demo-aggregator';

type Services = ReturnType<typeof createServices>;

describe.each(testDatabaseKinds())('provider money shared between players on %s (issue 12)', (kind) => {
  const suite = useSiteApp(kind);
  let sequence = 0;
  const next = (prefix: string) => `${prefix}-${kind}-${sequence++}`;

  async function launch(depositMinor: bigint) {
    const { t, siteId, currency } = suite;
    const user = await fundedUser(t, { siteId, currency, amountMinor: depositMinor, tag: next('shared-provider') });
    const session = await t.services.providerWallet.openProviderSession(siteId, user.id, GAME, currency);
    return { uid: user.id, token: session.token };
  }

  /** A bet or win as the provider API hands it to the service (the HTTP layer is provider-wallet.test.ts's). */
  function money(
    services: Services,
    action: 'bet' | 'win',
    who: { uid: number; token: string },
    amount: bigint,
    round: string,
    tx = next(action),
  ) {
    const request = {
      token: who.token,
      player_id: who.uid,
      transaction_id: tx,
      round_id: round,
      amount,
      currency: suite.currency,
    };
    return services.providerWallet[action](PROVIDER, suite.siteId, request);
  }

  const mainOf = async (uid: number) => (await suite.t.services.wallet.balances(suite.siteId, uid, suite.currency)).main;
  const stats = () => suite.t.services.providerWallet.sharedMoneyStats()!;
  const expectSoundLedger = async () => {
    const report = await checkLedger(suite.t.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
  };

  it('§5 players betting and winning at once share calls, and each request is written as one played alone: its row and answer, its transfer, its round, the balance after it', async () => {
    const players = await Promise.all(Array.from({ length: 8 }, () => launch(100_000n)));
    const before = stats();
    const played = await Promise.all(
      players.map(async (who, index) => {
        const answers = [];
        for (let n = 0; n < 4; n++) {
          const round = next('round');
          const stake = BigInt(100 + index * 10 + n);
          const win = n % 2 === 0 ? 0n : stake * 3n;
          answers.push({ round, stake, win, bet: await money(suite.t.services, 'bet', who, stake, round) });
          answers.push({ round, stake, win, paid: await money(suite.t.services, 'win', who, win, round) });
        }
        return answers;
      }),
    );
    const after = stats();
    expect(after.rounds - before.rounds).toBe(64);
    expect(after.calls - before.calls).toBeLessThan(64);
    expect(after.failedCalls).toBe(before.failedCalls);

    for (const [index, who] of players.entries()) {
      const answers = played[index]!;
      let expected = 100_000n;
      for (const answer of answers) {
        if ('bet' in answer) {
          expected -= answer.stake;
          expect(answer.bet).toMatchObject({ status: 'OK', balance: Number(expected) });
        } else {
          expected += answer.win;
          expect(answer.paid).toMatchObject({ status: 'OK', balance: Number(expected) });
        }
      }
      expect(await mainOf(who.uid)).toBe(expected);
      const rows = await suite.t.db.select().from(providerTransactions).where(eq(providerTransactions.userId, who.uid));
      expect(rows).toHaveLength(8);
      for (const row of rows) {
        const [moved] = row.transferId
          ? await suite.t.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.id, row.transferId))
          : [];
        // A transfer for every amount, under the request's key, and none for nothing.
        expect(moved?.idempotencyKey ?? null).toBe(row.amountMinor > 0n ? `provider:${PROVIDER}:tx:${row.txId}` : null);
        expect(moved?.amountMinor ?? 0n).toBe(row.amountMinor);
        expect(row.answer).toMatchObject({ status: 'OK', transaction_id: row.txId });
      }
      const rounds = await suite.t.db.select().from(providerRounds).where(eq(providerRounds.userId, who.uid));
      expect(rounds.map((round) => [round.roundId, round.stakeMinor, round.payoutMinor]).sort()).toEqual(
        answers
          .filter((answer) => 'bet' in answer)
          .map((answer) => [answer.round, answer.stake, answer.win])
          .sort(),
      );
    }
    await expectSoundLedger();
  });

  it('§5 a bet above one player’s balance is refused alone and records nothing; the requests beside it are applied; its replay once funded is applied', async () => {
    const short = await launch(50n);
    const others = await Promise.all(Array.from({ length: 4 }, () => launch(1_000n)));
    const before = stats();
    const shortRound = next('round');
    const shortTx = next('bet');
    const [refused, ...applied] = await sideBySide(suite.t.services.providerWallet.holdSharedMoney(), 5, () => [
      money(suite.t.services, 'bet', short, 80n, shortRound, shortTx).catch((error: unknown) => error),
      ...others.map((who) => money(suite.t.services, 'bet', who, 300n, next('round'))),
    ]);
    const after = stats();
    expect(after.calls - before.calls).toBeLessThan(after.rounds - before.rounds);
    // Refused inside the shared call, not by a call that failed and sent every request alone.
    expect(after.failedCalls).toBe(before.failedCalls);
    expect(refused).toMatchObject({ code: 'INSUFFICIENT_FUNDS', extra: { balanceOf: { userId: short.uid } } });
    expect(await suite.t.db.select().from(providerTransactions).where(eq(providerTransactions.userId, short.uid))).toEqual([]);
    expect(await suite.t.db.select().from(providerRounds).where(eq(providerRounds.userId, short.uid))).toEqual([]);
    expect(await mainOf(short.uid)).toBe(50n);
    for (const [index, who] of others.entries()) {
      expect(applied[index]).toMatchObject({ status: 'OK', balance: 700 });
      expect(await mainOf(who.uid)).toBe(700n);
    }
    await fundPlayer(suite.t, { uid: short.uid, siteId: suite.siteId, currency: suite.currency }, minorToAmount(100n));
    expect(await money(suite.t.services, 'bet', short, 80n, shortRound, shortTx)).toMatchObject({ status: 'OK', balance: 70 });
    await expectSoundLedger();
  });

  it('§5 a replay and a win without its round sent beside new bets are answered on their own (the first answer; ROUND_NOT_FOUND) while the bets beside them are applied', async () => {
    const [first, ...others] = await Promise.all(Array.from({ length: 4 }, () => launch(5_000n)));
    const round = next('round');
    const tx = next('bet');
    const applied = await money(suite.t.services, 'bet', first!, 700n, round, tx);
    const before = stats();
    const [replayed, orphanWin, ...bets] = await sideBySide(suite.t.services.providerWallet.holdSharedMoney(), 5, () => [
      money(suite.t.services, 'bet', first!, 700n, round, tx),
      money(suite.t.services, 'win', others[0]!, 50n, next('round')).catch((error: unknown) => error),
      ...others.map((who) => money(suite.t.services, 'bet', who, 200n, next('round'))),
    ]);
    const after = stats();
    expect(after.calls - before.calls).toBeLessThan(after.rounds - before.rounds);
    expect(after.failedCalls).toBe(before.failedCalls);
    expect(replayed).toEqual(applied);
    expect(orphanWin).toMatchObject({ code: 'ROUND_NOT_FOUND' });
    for (const answer of bets) expect(answer).toMatchObject({ status: 'OK', balance: 4_800 });
    expect(await mainOf(first!.uid)).toBe(4_300n);
    for (const who of others) expect(await mainOf(who.uid)).toBe(4_800n);
    await expectSoundLedger();
  });

  it('§5 with a round hook attached, bets and wins play in a transaction of their own: the hook sees each, and a hook that refuses a stake leaves nothing written', async () => {
    const who = await launch(10_000n);
    const seen: string[] = [];
    const detach = suite.t.services.roundIntake.attach({
      beforeStake: async (_tx, event: RoundMoneyEvent) => {
        if (event.amountMinor === 999n) throw Object.assign(new Error('hook refuses'), { code: 'HOOK_REFUSAL' });
        seen.push(`stake:${event.amountMinor}`);
      },
      afterSettle: async (_tx, event: RoundMoneyEvent) => {
        seen.push(`settle:${event.amountMinor}`);
      },
    });
    try {
      const before = stats();
      const round = next('round');
      expect(await money(suite.t.services, 'bet', who, 400n, round)).toMatchObject({ status: 'OK', balance: 9_600 });
      expect(await money(suite.t.services, 'win', who, 1_000n, round)).toMatchObject({ status: 'OK', balance: 10_600 });
      await expect(money(suite.t.services, 'bet', who, 999n, next('round'))).rejects.toThrow('hook refuses');
      expect(stats().rounds).toBe(before.rounds);
      expect(seen).toEqual(['stake:400', 'settle:1000']);
      expect(await mainOf(who.uid)).toBe(10_600n);
      expect(await suite.t.db.select().from(providerTransactions).where(eq(providerTransactions.userId, who.uid))).toHaveLength(
        2,
      );
    } finally {
      detach();
    }
    await expectSoundLedger();
  });

  it('§5 two processes on one database send the same players’ bets at once, some with the same transaction id: each id moves money once, no balance goes below zero', async () => {
    const other = kind === 'postgres' ? await openDatabase({ url: suite.t.database.url!, poolSize: 5 }) : undefined;
    // On PGlite the second "process" is a second set of services over the one database.
    const secondProcess = createServices(other?.db ?? suite.t.db);
    try {
      const processes = [suite.t.services, secondProcess];
      const players = await Promise.all(Array.from({ length: 4 }, () => launch(1_000n)));
      // Each player: 8 bets of 150 on 1 000, each sent by both processes at once.
      const attempts = await Promise.allSettled(
        players.flatMap((who) =>
          Array.from({ length: 8 }, (_, n) => ({ round: `${next('round')}`, tx: `${next('bet')}-${n}` })).flatMap(
            ({ round, tx }) => processes.map((services) => money(services, 'bet', who, 150n, round, tx)),
          ),
        ),
      );
      for (const attempt of attempts)
        if (attempt.status === 'rejected') expect((attempt.reason as { code?: string }).code).toBe('INSUFFICIENT_FUNDS');
      for (const who of players) {
        const rows = await suite.t.db.select().from(providerTransactions).where(eq(providerTransactions.userId, who.uid));
        const [bets] = await suite.t.db
          .select({ n: sql<number>`count(*)::int` })
          .from(ledgerTransfers)
          .where(and(eq(ledgerTransfers.userId, who.uid), eq(ledgerTransfers.kind, 'provider_bet')));
        expect(rows.length).toBeGreaterThan(0);
        expect(bets?.n).toBe(rows.length);
        const main = await mainOf(who.uid);
        expect(main >= 0n).toBe(true);
        expect(main).toBe(1_000n - 150n * BigInt(rows.length));
      }
      await expectSoundLedger();
    } finally {
      await secondProcess.balanceChanges?.close();
      await other?.close();
    }
  });
});
