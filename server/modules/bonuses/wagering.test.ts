/**
 * The bonus engine on the bet path, on a real database (issue 13 "Spending and isolation",
 * "Wagering progress is updated in the same database transaction as the bet"; decision 0008):
 * real money first then the wagered bonus, the bonus's share of a payout back to it, wagering by
 * the game's contribution, conversion capped, the maximum stake, isolation, rounds that settle
 * in a later transaction, free spins whose wins become a bonus, and a bet racing a forfeit.
 * After each: the ledger is sound and the bonus account holds exactly the active bonuses' balances.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { amountToMinor } from '#common/money';
import { isApiError } from '#common/errors';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { fundPlayer, hostPlayer } from '../../../test/host-player';
import { inTransaction } from '../../db/retry';
import type { Gambler, RoundMoney } from '../round-intake';
import { checkLedger, house, move, player as walletPlayer } from '../wallet';
import { bonusStakes, bonuses, type BonusRow } from './tables';

const DICE = 'dice-roll'; // type fast: 50 % on the demo templates
const SLOT = 'aurora-fortune'; // type slot: 100 %

describe.each(testDatabaseKinds())('wagering on the bet path on %s', (kind) => {
  let t: TestApp;
  let sequence = 0;

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  async function player(host: string, mainAmount: string): Promise<Gambler & { currency: string }> {
    const { uid, siteId, currency } = await hostPlayer(t, host);
    if (mainAmount !== '0.00') await fundPlayer(t, { uid, siteId, currency }, mainAmount);
    return { siteId, uid, visitorId: '', locale: 'en', siteCurrency: currency, currency };
  }

  async function activeBonus(who: Gambler & { currency: string }, templateId: string, depositMinor?: bigint) {
    const { row } = await t.services.bonuses.grantAndActivate({
      siteId: who.siteId,
      userId: who.uid,
      currency: who.currency,
      templateId,
      source: 'operator',
      sourceRef: `wagering:${sequence++}`,
      depositMinor,
    });
    expect(row.status).toBe('active');
    return row;
  }

  const bonusRow = async (id: number): Promise<BonusRow> => {
    const [row] = await t.db.select().from(bonuses).where(eq(bonuses.id, id));
    if (!row) throw new Error(`no bonus ${id}`);
    return row;
  };
  const balances = (who: Gambler & { currency: string }) => t.services.wallet.balances(who.siteId, who.uid, who.currency);
  const play = (who: Gambler, sysname: string, bet: unknown) =>
    t.services.gameRounds.play(who, { sysname, mode: 'real', bet: JSON.stringify(bet), requestId: `w-${kind}-${sequence++}` });
  const minor = (amount: string) => amountToMinor(amount);

  /** The bonus invariant: the player's bonus accounts hold exactly their active bonuses' balances; the ledger is sound. */
  async function expectBonusAccountMatches(who: Gambler & { currency: string }) {
    expect(await t.services.bonuses.balanceMismatches(who.siteId, who.uid, who.currency)).toEqual([]);
    const report = await checkLedger(t.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
  }

  it('with no real money the stake comes from the bonus, its payout goes back to the bonus, and a slot counts 100 %', async () => {
    const who = await player('127.0.0.1', '0.00');
    const bonus = await activeBonus(who, 'promo10');
    let paid = 0n;
    for (let i = 0; i < 5; i++) {
      const result = await play(who, SLOT, { stake: '1.00' });
      paid += minor(result.round.payout.amount);
      expect(result.bonus_balance?.amount).toBeDefined();
    }
    const after = await bonusRow(bonus.id);
    expect((await balances(who)).main).toBe(0n);
    expect(after.balanceMinor).toBe(minor('10.00') - minor('5.00') + paid);
    expect(after.wageredMinor).toBe(minor('5.00'));
    await expectBonusAccountMatches(who);
  });

  it('real money pays first; the bonus pays only what real money cannot, and takes the same share of the payout', async () => {
    const who = await player('127.0.0.1', '0.60');
    const bonus = await activeBonus(who, 'promo10');
    // 0.60 real and 1.40 bonus of a 2.00 stake; a near-certain dice win pays about 2.08.
    const result = await play(who, DICE, { stake: '2.00', direction: 'under', target: '95.00' });
    const payout = minor(result.round.payout.amount);
    const toBonus = (payout * 140n) / 200n;
    const after = await bonusRow(bonus.id);
    expect(after.balanceMinor).toBe(minor('10.00') - minor('1.40') + toBonus);
    expect((await balances(who)).main).toBe(payout - toBonus);
    // dice is a fast game: 50 % of the whole stake counts.
    expect(after.wageredMinor).toBe(minor('1.00'));
    await expectBonusAccountMatches(who);
  });

  it('a stake above the bonus’s maximum is refused with a clear reason and moves no money (max stake while wagering)', async () => {
    const who = await player('127.0.0.1', '50.00');
    const bonus = await activeBonus(who, 'promo10');
    const before = await balances(who);
    const refused = await play(who, SLOT, { stake: '2.50' }).catch((error: unknown) => error);
    expect(isApiError(refused) && refused.errorData).toMatchObject({
      field: 'stake',
      errorType: 'bonusMaxStake',
      max_stake: '2.00',
    });
    expect(await balances(who)).toEqual(before);
    expect((await bonusRow(bonus.id)).wageredMinor).toBe(0n);
  });

  it('with isolation the bonus is frozen while real money remains: a stake real money cannot cover is refused, then bonus money plays once it is spent', async () => {
    const who = await player('lagoon.localhost', '1.50');
    const bonus = await activeBonus(who, 'promo10');
    const refused = await play(who, SLOT, { stake: '2.00' }).catch((error: unknown) => error);
    expect(isApiError(refused) && refused.errorData).toMatchObject({ field: 'stake', errorType: 'bonusFrozen' });
    expect((await balances(who)).main).toBe(minor('1.50'));
    expect((await bonusRow(bonus.id)).balanceMinor).toBe(minor('10.00'));
    await expectBonusAccountMatches(who);

    // A player of the same site whose real money is spent plays on the bonus.
    const spent = await player('lagoon.localhost', '0.00');
    const playing = await activeBonus(spent, 'promo10');
    const result = await play(spent, SLOT, { stake: '1.00' });
    const after = await bonusRow(playing.id);
    expect(after.balanceMinor).toBe(minor('9.00') + minor(result.round.payout.amount));
    expect(after.wageredMinor).toBe(minor('1.00'));
    expect((await balances(spent)).main).toBe(0n);
    await expectBonusAccountMatches(spent);
  });

  it('wagering complete converts the bonus balance to real money in the bet’s own transaction, capped by the maximum conversion', async () => {
    const who = await player('127.0.0.1', '100.00');
    // signup5: 5.00 × 10 = 50.00 to wager, 1.00 the maximum stake; real money pays every stake, so the bonus keeps its 5.00.
    const bonus = await activeBonus(who, 'signup5');
    const mainBefore = (await balances(who)).main;
    let net = 0n;
    for (let i = 0; i < 50; i++) {
      const result = await play(who, SLOT, { stake: '1.00' });
      net += minor(result.round.payout.amount) - minor('1.00');
    }
    const after = await bonusRow(bonus.id);
    expect(after).toMatchObject({ status: 'converted', balanceMinor: 0n, convertedMinor: minor('5.00') });
    expect(after.wageredMinor).toBeGreaterThanOrEqual(after.wageringRequiredMinor);
    expect((await balances(who)).main).toBe(mainBefore + net + minor('5.00'));
    await expectBonusAccountMatches(who);
  });

  it('a stake of a round settled later draws on the bonus at once; its payout comes back to the bonus, or to the house if the bonus ended meanwhile', async () => {
    const who = await player('127.0.0.1', '0.00');
    const bonus = await activeBonus(who, 'promo10');
    const round = (reference: string): RoundMoney => ({
      path: 'stateful',
      siteId: who.siteId,
      userId: who.uid,
      currency: who.currency,
      mode: 'real',
      sysname: 'mines-field',
      gameType: 'fast',
      reference,
      actor: `player:${who.uid}`,
    });
    const intake = t.services.roundIntake;
    const ref = `round:wagering-${kind}-${sequence++}`;
    await inTransaction(t.db, (tx) => intake.stake(tx, round(ref), { amountMinor: minor('2.00'), idempotencyKey: `${ref}:bet` }));
    expect((await bonusRow(bonus.id)).balanceMinor).toBe(minor('8.00'));
    await expectBonusAccountMatches(who);
    await inTransaction(t.db, (tx) =>
      intake.settle(tx, round(ref), { amountMinor: minor('3.00'), idempotencyKey: `${ref}:win` }),
    );
    const settled = await bonusRow(bonus.id);
    expect(settled.balanceMinor).toBe(minor('11.00'));
    expect(settled.wageredMinor).toBe(minor('1.00'));
    expect(await t.db.select().from(bonusStakes).where(eq(bonusStakes.stakeRef, ref))).toHaveLength(0);

    // A second round stakes, the player forfeits the bonus, the round then wins: the bonus's share is the house's.
    const later = `round:wagering-${kind}-${sequence++}`;
    await inTransaction(t.db, (tx) =>
      intake.stake(tx, round(later), { amountMinor: minor('2.00'), idempotencyKey: `${later}:bet` }),
    );
    await t.services.bonuses.forfeitActive(who.siteId, who.uid, `player:${who.uid}`);
    await inTransaction(t.db, (tx) =>
      intake.settle(tx, round(later), { amountMinor: minor('4.00'), idempotencyKey: `${later}:win` }),
    );
    expect(await balances(who)).toMatchObject({ main: 0n, bonus: 0n });
    expect((await bonusRow(bonus.id)).status).toBe('forfeited');
    await expectBonusAccountMatches(who);
  });

  it('a real mines round with only bonus money: the stake leaves the bonus, and whatever the field, the bonus and its account agree', async () => {
    const who = await player('127.0.0.1', '0.00');
    const bonus = await activeBonus(who, 'promo10');
    const opened = await t.services.statefulRounds.start(who, {
      sysname: 'mines-field',
      mode: 'real',
      bet: JSON.stringify({ stake: '1.00', mines: 3 }),
      requestId: `w-${kind}-${sequence++}`,
    });
    expect((await bonusRow(bonus.id)).balanceMinor).toBe(minor('9.00'));
    expect(opened.bonus_balance).toEqual({ amount: '9.00', currency: who.currency });
    const revealed = await t.services.statefulRounds.act(who, {
      roundId: Number(opened.round.id),
      action: 'reveal',
      params: { cell: 0 },
      requestId: `w-${kind}-${sequence++}`,
    });
    if (revealed.round.status === 'open')
      await t.services.statefulRounds.act(who, {
        roundId: Number(opened.round.id),
        action: 'cashout',
        params: {},
        requestId: `w-${kind}-${sequence++}`,
      });
    const after = await bonusRow(bonus.id);
    // mines is a fast game: 50 % of the 1.00 stake counts once the round settles.
    expect(after.wageredMinor).toBe(minor('0.50'));
    expect((await balances(who)).main).toBe(0n);
    await expectBonusAccountMatches(who);
  });

  it('free spins with wagering: the pack’s wins gather in one active casino bonus with its own wagering', async () => {
    const who = await player('127.0.0.1', '0.00');
    const pack = await t.services.freespins.award({
      siteId: who.siteId,
      userId: who.uid,
      sysname: SLOT,
      count: 20,
      stake: '0.50',
      validDays: 7,
      wageringMultiplier: 5,
      awardKey: `wagering-${kind}-${sequence++}`,
      actor: 'operator:test',
      reason: 'test',
    });
    let wins = 0n;
    for (let i = 0; i < 20; i++) {
      const result = await t.services.gameRounds.play(who, {
        sysname: SLOT,
        mode: 'real',
        bet: JSON.stringify({ stake: '0.50' }),
        requestId: `w-${kind}-${sequence++}`,
        freespinPackId: Number(pack.id),
      });
      wins += minor(result.round.payout.amount);
    }
    const rows = await t.db
      .select()
      .from(bonuses)
      .where(and(eq(bonuses.userId, who.uid), eq(bonuses.source, 'freespins')));
    if (wins === 0n) expect(rows).toHaveLength(0);
    else
      expect(rows.map((row) => [row.status, row.amountMinor, row.balanceMinor, row.wageringRequiredMinor])).toEqual([
        ['active', wins, wins, wins * 5n],
      ]);
    expect((await balances(who)).main).toBe(0n);
    await expectBonusAccountMatches(who);
  });

  it('parallel bets and a forfeit racing on one bonus: every bet runs wholly before or after the forfeit, progress never goes back, the accounts agree', async () => {
    const who = await player('127.0.0.1', '0.00');
    const bonus = await activeBonus(who, 'promo10');
    const seen: bigint[] = [];
    const bets = Array.from({ length: 8 }, () =>
      play(who, SLOT, { stake: '0.50' })
        .then(async () => seen.push((await bonusRow(bonus.id)).wageredMinor))
        .catch((error: unknown) => error),
    );
    const forfeit = t.services.bonuses.forfeitActive(who.siteId, who.uid, `player:${who.uid}`);
    const [forfeited] = await Promise.all([forfeit, ...bets]);
    expect(forfeited).toBe(1);
    const after = await bonusRow(bonus.id);
    expect(after).toMatchObject({ status: 'forfeited', balanceMinor: 0n });
    // What the bets before the forfeit wagered stays; none after it counted.
    expect(after.wageredMinor % minor('0.50')).toBe(0n);
    expect(Math.max(...seen.map(Number), 0)).toBeLessThanOrEqual(Number(after.wageredMinor));
    expect(await balances(who)).toMatchObject({ main: 0n, bonus: 0n });
    await expectBonusAccountMatches(who);
  });

  it('the balance check names bonus money that no active bonus accounts for (the check itself can fail)', async () => {
    const who = await player('127.0.0.1', '0.00');
    await activeBonus(who, 'promo10');
    expect(await t.services.bonuses.balanceMismatches(who.siteId, who.uid, who.currency)).toEqual([]);
    // Money put on the bonus account outside the bonus engine, as a faulty path would.
    await t.services.wallet.transfer({
      siteId: who.siteId,
      userId: who.uid,
      kind: 'adjustment',
      currency: who.currency,
      amountMinor: 1n,
      legs: move(house('adjustment', who.uid), walletPlayer(who.uid, 'bonus'), 1n),
      actor: 'test',
      reason: 'a stray cent',
    });
    expect(await t.services.bonuses.balanceMismatches(who.siteId, who.uid, who.currency)).toEqual([
      `player ${who.uid}: bonus account ${minor('10.00') + 1n}, active bonuses ${minor('10.00')}`,
    ]);
  });
});
