/**
 * Real-money rounds of several players sharing one transaction (issue 12; shared-rounds.ts) on
 * both databases: each round is still all or nothing on its own (architecture §5), one owner's
 * rounds each take the next nonce (§6 provably fair), a refusal or a replay concerns its own round
 * only, and two processes on one PostgreSQL share their own players' rounds without overdrawing a
 * balance or repeating a nonce.
 */
import { describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { minorToAmount, amountToMinor } from '#common/money';
import { testDatabaseKinds } from '../../../test/databases';
import { fundPlayer } from '../../../test/host-player';
import { signedInPlayer, type Browser } from '../../../test/player';
import { sideBySide } from '../../../test/side-by-side';
import { useSiteApp } from '../../../test/site-app';
import { openDatabase } from '../../db/client';
import { ledgerTransfers } from '../../db/schema';
import { createServices } from '../../services';
import { checkLedger } from '../wallet';
import type { Gambler } from '../round-intake';
import type { RoundView } from './service';
import { fairSeeds, gameRounds } from './tables';

const DICE = 'dice-roll';
const SLOT = 'aurora-fortune';
const DICE_BET = JSON.stringify({ stake: '1.00', direction: 'under', target: '50.00' });
const SLOT_BET = JSON.stringify({ stake: '1.00' });

interface PlayAnswer {
  round: RoundView;
  is_replay: boolean;
  balance: { amount: string; currency: string } | null;
}

describe.each(testDatabaseKinds())('shared rounds on %s (issue 12)', (kind) => {
  const suite = useSiteApp(kind);
  let sequence = 0;

  /** A signed-in player with `amount` on main and an active seed pair (a first round has none yet and plays alone). */
  async function readyPlayer(amount: string) {
    const player = await signedInPlayer(suite.t);
    await fundPlayer(suite.t, { uid: player.uid, siteId: suite.siteId, currency: suite.currency }, amount);
    player.browser.data(await player.browser.call('games.getSeeds', {}, 'GET'));
    return player;
  }

  const play = (browser: Browser, n: number, requestId = `shared-${sequence++}`) =>
    browser.call('games.play', {
      sysname: n % 2 === 0 ? DICE : SLOT,
      mode: 'real',
      bet: n % 2 === 0 ? DICE_BET : SLOT_BET,
      request_id: requestId,
    });

  const roundsOf = (uid: number) =>
    suite.t.db.select().from(gameRounds).where(eq(gameRounds.userId, uid)).orderBy(asc(gameRounds.nonce));

  const mainOf = async (uid: number) => (await suite.t.services.wallet.balances(suite.siteId, uid, suite.currency)).main;

  const expectSoundLedger = async () => {
    const report = await checkLedger(suite.t.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
  };

  it('§5/§6 players playing at once share transactions, and every round is written as a round played alone: its own nonce, its stake and win transfers, the balance it answers', async () => {
    const players = await Promise.all(Array.from({ length: 8 }, () => readyPlayer('20.00')));
    const before = suite.t.services.gameRounds.sharedRoundStats();
    const answers = await Promise.all(
      players.map(async ({ browser }) => {
        const mine: PlayAnswer[] = [];
        for (let n = 0; n < 5; n++) mine.push(browser.data<PlayAnswer>(await play(browser, n)));
        return mine;
      }),
    );
    const after = suite.t.services.gameRounds.sharedRoundStats();
    // Every round shared; each owner's first comes back once to learn the owner's seed pair.
    expect(after.staleRounds - before.staleRounds).toBe(8);
    expect(after.rounds - before.rounds).toBe(40 + 8);
    expect(after.calls - before.calls).toBeLessThan(40);
    expect(after.failedCalls).toBe(before.failedCalls);

    for (const [index, { uid }] of players.entries()) {
      const rows = await roundsOf(uid);
      expect(rows.map((row) => row.nonce)).toEqual([0, 1, 2, 3, 4]);
      expect(rows.map((row) => String(row.id))).toEqual(answers[index]!.map((answer) => answer.round.id));
      const [seed] = await suite.t.db.select().from(fairSeeds).where(eq(fairSeeds.userId, uid));
      expect(seed?.nextNonce).toBe(5);
      const staked = rows.reduce((sum, row) => sum + row.stakeMinor, 0n);
      const paid = rows.reduce((sum, row) => sum + row.payoutMinor, 0n);
      const main = await mainOf(uid);
      expect(main).toBe(amountToMinor('20.00') - staked + paid);
      expect(answers[index]!.at(-1)!.balance?.amount).toBe(minorToAmount(main));
      for (const row of rows) {
        const keys = (
          await suite.t.db
            .select({ key: ledgerTransfers.idempotencyKey, amount: ledgerTransfers.amountMinor })
            .from(ledgerTransfers)
            .where(eq(ledgerTransfers.reference, `round:${row.id}`))
        ).map(({ key, amount }) => `${key}=${amount}`);
        const expected = [`round:${row.id}:bet=${row.stakeMinor}`];
        if (row.payoutMinor > 0n) expected.push(`round:${row.id}:win=${row.payoutMinor}`);
        expect(keys.sort()).toEqual(expected.sort());
      }
    }
    await expectSoundLedger();
  });

  it("§5 a stake above one player's balance refuses that round alone, writing nothing of it; the rounds beside it are played", async () => {
    const short = await readyPlayer('0.50');
    const others = await Promise.all(Array.from({ length: 4 }, () => readyPlayer('5.00')));
    const before = suite.t.services.gameRounds.sharedRoundStats();
    const [refused, ...played] = await sideBySide(suite.t.services.gameRounds.holdSharedRounds(), 5, () => [
      play(short.browser, 0),
      ...others.map(({ browser }) => play(browser, 1)),
    ]);
    const after = suite.t.services.gameRounds.sharedRoundStats();
    expect(after.calls - before.calls).toBeLessThan(after.rounds - before.rounds);
    // Refused inside the shared call, not by a call that failed and sent every round alone.
    expect(after.failedCalls).toBe(before.failedCalls);

    expect(refused?.json.error).toMatchObject({ type: 'InvalidParameterException' });
    expect(refused?.json.error?.error_data).toMatchObject({ field: 'stake' });
    expect(await roundsOf(short.uid)).toEqual([]);
    const [seed] = await suite.t.db.select().from(fairSeeds).where(eq(fairSeeds.userId, short.uid));
    expect(seed?.nextNonce).toBe(0);
    expect(await mainOf(short.uid)).toBe(amountToMinor('0.50'));
    for (const [index, answer] of played.entries()) {
      const data = others[index]!.browser.data<PlayAnswer>(answer);
      expect(data.is_replay).toBe(false);
      expect(await roundsOf(others[index]!.uid)).toHaveLength(1);
    }
    await expectSoundLedger();
  });

  it('§5/§6 a call that drops a round played on a moved seed pair writes none of its money: the rounds beside it move theirs, and it moves its own once, when played again', async () => {
    const players = await Promise.all(Array.from({ length: 4 }, () => readyPlayer('10.00')));
    // A first round each, so that the process knows every player's seed pair.
    await Promise.all(players.map(({ browser }) => play(browser, 1)));
    const [moved] = players;
    moved!.browser.data(await moved!.browser.call('games.setClientSeed', { client_seed: 'moved-in-between' }));
    const before = suite.t.services.gameRounds.sharedRoundStats();
    const answers = await Promise.all(players.map(({ browser }) => play(browser, 0)));
    const after = suite.t.services.gameRounds.sharedRoundStats();
    expect(after.staleRounds - before.staleRounds).toBe(1);
    expect(after.failedCalls).toBe(before.failedCalls);
    for (const [index, { uid, browser }] of players.entries()) {
      expect(browser.data<PlayAnswer>(answers[index]!).is_replay).toBe(false);
      const rows = await roundsOf(uid);
      expect(rows).toHaveLength(2);
      const moneyOf = await suite.t.db
        .select({ reference: ledgerTransfers.reference })
        .from(ledgerTransfers)
        .where(and(eq(ledgerTransfers.userId, uid), sql`${ledgerTransfers.reference} LIKE 'round:%'`));
      // Money only for the rounds written: the dropped attempt's id names no transfer.
      expect(new Set(moneyOf.map(({ reference }) => reference))).toEqual(new Set(rows.map((row) => `round:${row.id}`)));
      const net = rows.reduce((sum, row) => sum - row.stakeMinor + row.payoutMinor, 0n);
      expect(await mainOf(uid)).toBe(amountToMinor('10.00') + net);
    }
    await expectSoundLedger();
  });

  it('§5 the same request id sent twice at once plays one round: one answer is the round, the other its replay, and the money moved once', async () => {
    const { browser, uid } = await readyPlayer('5.00');
    const requestId = `twin-${sequence++}`;
    const [first, second] = await Promise.all([play(browser, 0, requestId), play(browser, 0, requestId)]);
    const answers = [browser.data<PlayAnswer>(first!), browser.data<PlayAnswer>(second!)];
    expect(answers.map((answer) => answer.is_replay).sort()).toEqual([false, true]);
    expect(answers[0]!.round.id).toBe(answers[1]!.round.id);
    const rows = await roundsOf(uid);
    expect(rows).toHaveLength(1);
    expect(await mainOf(uid)).toBe(amountToMinor('5.00') - rows[0]!.stakeMinor + rows[0]!.payoutMinor);
    await expectSoundLedger();
  });

  it('§6 a round played on a seed pair that moved meanwhile is played again on the pair as it is: a new client seed, a rotation, a round of another process', async () => {
    const { browser, uid } = await readyPlayer('10.00');
    const round = async (n: number) => browser.data<PlayAnswer>(await play(browser, n)).round;
    await round(1);
    const before = suite.t.services.gameRounds.sharedRoundStats();
    browser.data(await browser.call('games.setClientSeed', { client_seed: 'moved-client-seed' }));
    const onNewClientSeed = await round(1);
    browser.data(await browser.call('games.rotateSeeds', { client_seed: 'rotated-client-seed' }));
    const onRotatedPair = await round(0);
    const gambler: Gambler = { siteId: suite.siteId, uid, visitorId: '', locale: 'en', siteCurrency: suite.currency };
    const otherProcess = createServices(suite.t.db);
    const elsewhere = await otherProcess.gameRounds.play(gambler, {
      sysname: SLOT,
      mode: 'real',
      bet: SLOT_BET,
      requestId: `elsewhere-${sequence++}`,
    });
    await otherProcess.balanceChanges?.close();
    const afterElsewhere = await round(0);
    const after = suite.t.services.gameRounds.sharedRoundStats();
    expect(after.staleRounds - before.staleRounds).toBe(3);
    expect(after.failedCalls).toBe(before.failedCalls);

    expect([onNewClientSeed.client_seed, onNewClientSeed.nonce]).toEqual(['moved-client-seed', 1]);
    expect([onRotatedPair.client_seed, onRotatedPair.nonce]).toEqual(['rotated-client-seed', 0]);
    expect([elsewhere.round.nonce, afterElsewhere.nonce]).toEqual([1, 2]);
    expect(afterElsewhere.server_seed_hash).toBe(onRotatedPair.server_seed_hash);
    // Revealed, every round verifies on the pair it names: its stored outcome is the one its seeds give.
    browser.data(await browser.call('games.rotateSeeds', {}));
    const rows = await suite.t.db.select().from(gameRounds).where(eq(gameRounds.userId, uid)).orderBy(asc(gameRounds.id));
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      const verified = browser.data<{ is_verified: boolean | null }>(
        await browser.call('games.verifyRound', { round_id: String(row.id) }, 'GET'),
      );
      expect(verified.is_verified).toBe(true);
    }
    await expectSoundLedger();
  });

  it('§5/§6 two processes on one database play the same players at once: every nonce once, no balance below zero, each round paid once', async () => {
    const other = kind === 'postgres' ? await openDatabase({ url: suite.t.database.url!, poolSize: 5 }) : undefined;
    // On PGlite the second "process" is a second set of services over the one database.
    const secondProcess = createServices(other?.db ?? suite.t.db);
    try {
      const processes = [suite.t.services, secondProcess];
      const players = await Promise.all(Array.from({ length: 4 }, () => readyPlayer('6.00')));
      const gambler = (uid: number): Gambler => ({
        siteId: suite.siteId,
        uid,
        visitorId: '',
        locale: 'en',
        siteCurrency: suite.currency,
      });
      // Each player asks for 10 rounds of 1.00 on 6.00, half through each process, all at once.
      const attempts = await Promise.allSettled(
        players.flatMap(({ uid }) =>
          Array.from({ length: 10 }, (_, n) =>
            processes[n % 2]!.gameRounds.play(gambler(uid), {
              sysname: SLOT,
              mode: 'real',
              bet: SLOT_BET,
              requestId: `two-${uid}-${n}`,
            }),
          ),
        ),
      );
      const refusals = attempts.filter((attempt) => attempt.status === 'rejected');
      for (const refusal of refusals) expect(String((refusal as PromiseRejectedResult).reason)).toMatch(/stake|deposit/i);
      for (const { uid } of players) {
        const rows = await roundsOf(uid);
        expect(rows.map((row) => row.nonce)).toEqual(rows.map((_, index) => index));
        // Recall and history read an owner's rounds by id: ids follow the order they were played in.
        expect(rows.map((row) => row.id)).toEqual(rows.map((row) => row.id).sort((a, b) => a - b));
        const main = await mainOf(uid);
        expect(main >= 0n).toBe(true);
        expect(main).toBe(amountToMinor('6.00') - rows.reduce((sum, row) => sum + row.stakeMinor - row.payoutMinor, 0n));
        const [bets] = await suite.t.db
          .select({ n: sql<number>`count(*)::int` })
          .from(ledgerTransfers)
          .where(and(eq(ledgerTransfers.userId, uid), eq(ledgerTransfers.kind, 'game_bet')));
        expect(bets?.n).toBe(rows.length);
      }
      expect(attempts.length - refusals.length).toBe(
        (await Promise.all(players.map(({ uid }) => roundsOf(uid)))).reduce((sum, rows) => sum + rows.length, 0),
      );
      await expectSoundLedger();
    } finally {
      await secondProcess.balanceChanges?.close();
      await other?.close();
    }
  });
});
