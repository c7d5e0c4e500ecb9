/**
 * The betting bonus service the sportsbook calls (issue 13 "Betting bonuses": free bets and
 * betting bonus money with a minimum odds rule and wagering counted on settled bets; "fund a bet
 * from the betting bonus, record a settled bet's contribution"), on a real database, with the
 * bets the sportsbook will place stood in by their ids. After each: the ledger is sound and the
 * betting bonus account holds exactly the active betting bonuses' balances.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { amountToMinor } from '#common/money';
import { isApiError } from '#common/errors';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { hostPlayer } from '../../../test/host-player';
import { inTransaction } from '../../db/retry';
import { checkLedger, InsufficientFundsError } from '../wallet';
import { bonuses, type BonusRow } from './tables';

describe.each(testDatabaseKinds())('betting bonuses for the sportsbook on %s', (kind) => {
  let t: TestApp;
  let sequence = 0;

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  async function playerWith(templateId: string) {
    const who = await hostPlayer(t, '127.0.0.1');
    const { row } = await t.services.bonuses.grantAndActivate({
      siteId: who.siteId,
      userId: who.uid,
      currency: who.currency,
      templateId,
      source: 'operator',
      sourceRef: `betting:${sequence++}`,
    });
    expect(row.status).toBe('active');
    return { ...who, bonus: row };
  }
  type Who = Awaited<ReturnType<typeof playerWith>>;

  const betting = () => t.services.bonuses.betting;
  const minor = amountToMinor;
  const bonusRow = async (id: number): Promise<BonusRow> => {
    const [row] = await t.db.select().from(bonuses).where(eq(bonuses.id, id));
    if (!row) throw new Error(`no bonus ${id}`);
    return row;
  };
  const balances = (who: Who) => t.services.wallet.balances(who.siteId, who.uid, who.currency);
  const stake = (who: Who, betRef: string, amount: string, odds: number) =>
    inTransaction(t.db, (tx) =>
      betting().stake(tx, {
        siteId: who.siteId,
        userId: who.uid,
        currency: who.currency,
        bonusId: who.bonus.id,
        betRef,
        stakeMinor: minor(amount),
        odds,
      }),
    );
  const settle = (who: Who, betRef: string, payout: string, odds: number) =>
    inTransaction(t.db, (tx) =>
      betting().settle(tx, { siteId: who.siteId, userId: who.uid, betRef, payoutMinor: minor(payout), odds }),
    );
  const refusal = (error: unknown) => (isApiError(error) ? { type: error.type, data: error.errorData } : error);

  async function expectAccountsAgree(who: Who) {
    expect(await t.services.bonuses.balanceMismatches(who.siteId, who.uid, who.currency)).toEqual([]);
    const report = await checkLedger(t.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
  }

  it('a free bet is placed whole at its minimum odds or above; a winning one pays only its winnings, as real money, and is used', async () => {
    const who = await playerWith('freebet5');
    const ref = `fb-${kind}-${sequence++}`;
    // Below 1.50, or not the whole 5.00: refused, nothing moves.
    expect(refusal(await stake(who, ref, '5.00', 1.4).catch((e: unknown) => e))).toMatchObject({ data: { field: 'odds' } });
    expect(refusal(await stake(who, ref, '2.00', 2).catch((e: unknown) => e))).toMatchObject({ data: { field: 'stake' } });
    expect((await balances(who)).betting_bonus).toBe(minor('5.00'));

    await stake(who, ref, '5.00', 2.4);
    expect((await balances(who)).betting_bonus).toBe(0n);
    expect(await settle(who, ref, '12.00', 2.4)).toBe(true);
    expect((await balances(who)).main).toBe(minor('7.00'));
    expect(await bonusRow(who.bonus.id)).toMatchObject({ status: 'converted', convertedMinor: minor('7.00') });
    await expectAccountsAgree(who);
  });

  it('a losing free bet is used and pays nothing', async () => {
    const who = await playerWith('freebet5');
    const ref = `fb-${kind}-${sequence++}`;
    await stake(who, ref, '5.00', 3);
    await settle(who, ref, '0.00', 3);
    expect(await balances(who)).toMatchObject({ main: 0n, betting_bonus: 0n });
    expect(await bonusRow(who.bonus.id)).toMatchObject({ status: 'converted', convertedMinor: 0n });
    await expectAccountsAgree(who);
  });

  it('betting bonus money: the payout returns to the bonus, only bets settled at its minimum odds count, and complete it converts', async () => {
    const who = await playerWith('sportsbonus10'); // 10.00, 5× = 50.00 at odds 1.80 or more
    const low = `bb-${kind}-${sequence++}`;
    await stake(who, low, '10.00', 1.5);
    await settle(who, low, '15.00', 1.5);
    let row = await bonusRow(who.bonus.id);
    expect(row).toMatchObject({ status: 'active', balanceMinor: minor('15.00'), wageredMinor: 0n });

    let wagered = 0n;
    while (row.status === 'active') {
      const ref = `bb-${kind}-${sequence++}`;
      await stake(who, ref, '10.00', 2);
      await settle(who, ref, '20.00', 2);
      wagered += minor('10.00');
      row = await bonusRow(who.bonus.id);
      if (row.status === 'active') expect(row.wageredMinor).toBe(wagered);
    }
    expect(wagered).toBe(minor('50.00'));
    // 15.00 + five bets each +10.00 = 65.00, under the 100.00 cap: all of it real money now.
    expect(row).toMatchObject({ status: 'converted', convertedMinor: minor('65.00') });
    expect(await balances(who)).toMatchObject({ main: minor('65.00'), betting_bonus: 0n });
    await expectAccountsAgree(who);
  });

  it('another player’s bonus, a bonus not active and a stake above the balance are refused and move nothing', async () => {
    const who = await playerWith('sportsbonus10');
    const other = await playerWith('sportsbonus10');
    const ref = `bb-${kind}-${sequence++}`;
    const foreign = await stake({ ...other, bonus: who.bonus }, ref, '1.00', 2).catch((e: unknown) => e);
    expect(refusal(foreign)).toMatchObject({ type: 'AccessDeniedException' });
    expect(await stake(who, ref, '10.01', 2).catch((e: unknown) => e)).toBeInstanceOf(InsufficientFundsError);
    await t.services.bonuses.remove(who.siteId, who.uid, who.bonus.id, 'betting');
    const ended = await stake(who, ref, '1.00', 2).catch((e: unknown) => e);
    expect(refusal(ended)).toMatchObject({ data: { bonus_id: ['NOT_ACTIVE'] } });
    expect(await settle(who, ref, '5.00', 2)).toBe(false);
    await expectAccountsAgree(who);
    await expectAccountsAgree(other);
  });

  it('a bet racing the bonus’s removal: the bet’s share goes to the house if the removal came first, and the accounts agree either way', async () => {
    const who = await playerWith('sportsbonus10');
    const ref = `bb-${kind}-${sequence++}`;
    await stake(who, ref, '4.00', 2);
    await Promise.all([settle(who, ref, '8.00', 2), t.services.bonuses.remove(who.siteId, who.uid, who.bonus.id, 'betting')]);
    expect((await bonusRow(who.bonus.id)).status).toBe('forfeited');
    expect(await balances(who)).toMatchObject({ main: 0n, betting_bonus: 0n });
    await expectAccountsAgree(who);
  });
});
