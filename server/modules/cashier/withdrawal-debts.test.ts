/**
 * A withdrawal while the player owes a debt (issue 14 "Settlement": a rollback takes back a payout
 * the player spent, "the difference is recorded as a debt the next deposit clears, or the
 * operator's policy configured per site"; settings.wallet.debt_policy). Under the default
 * `collect` policy the debt is repaid from the main balance first: a withdrawal may take only
 * what is left, and a larger one is refused (WithdrawalDeclinedException OPEN_DEBT) with nothing
 * moved. Raced against a deposit's collection of the same debt by two processes on PostgreSQL,
 * the debt is repaid once and the ledger stays sound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { amountToMinor } from '#common/money';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { fundPlayer, hostPlayer } from '../../../test/host-player';
import { raceInProcesses } from '../../../test/race-processes';
import { RecordingProvider } from '../../../test/recording-provider';
import { inTransaction } from '../../db/retry';
import { contacts, ledgerTransfers, users } from '../../db/schema';
import { checkLedger, house } from '../wallet';
import type { PlayerRequest } from './cashier-deps';

const CARD = { method: 'card', requisites: { card_holder: 'Ada Lovelace', card_number: '4242424242424242' } };

function suite(kind: 'pglite' | 'postgres') {
  let t: TestApp;
  let sequence = 0;
  const provider = new RecordingProvider();

  beforeAll(async () => {
    t = await createTestApp(kind);
    t.services.paymentProviders.set('sandbox', provider);
  });
  afterAll(() => t.close());

  /** A player who won 10.00 and spent it, then had 25.00 taken back by a rollback (15.00 owed), then got 40.00. */
  async function indebted() {
    const who = await hostPlayer(t, '127.0.0.1');
    await t.db.update(users).set({ isVerified: true }).where(eq(users.id, who.uid));
    await t.db.update(contacts).set({ isConfirmed: true }).where(eq(contacts.userId, who.uid));
    await fundPlayer(t, who, '10.00');
    await inTransaction(t.db, (tx) =>
      t.services.debts.reclaim(
        tx,
        {
          siteId: who.siteId,
          userId: who.uid,
          currency: who.currency,
          amountMinor: amountToMinor('25.00'),
          to: house('game', who.uid),
          kind: 'sport_reversal',
          idempotencyKey: `debt-test:${kind}:${sequence++}`,
          reference: 'debt-test',
          actor: 'system',
          reason: 'a rollback after the payout was spent',
        },
        'collect',
      ),
    );
    await fundPlayer(t, who, '40.00');
    const site = await t.services.sites.resolveSite('127.0.0.1');
    const user = (await t.services.accounts.findUser(who.uid))!;
    const request: PlayerRequest = { site, user, locale: 'en', origin: 'http://127.0.0.1' };
    return { who, request };
  }

  const balances = (who: { siteId: string; uid: number; currency: string }) =>
    t.services.wallet.balances(who.siteId, who.uid, who.currency);
  const owed = (who: { siteId: string; uid: number; currency: string }) =>
    t.services.debts.owed(who.siteId, who.uid, who.currency);
  const repaid = async (uid: number) =>
    (
      await t.db
        .select({ amountMinor: ledgerTransfers.amountMinor })
        .from(ledgerTransfers)
        .where(and(eq(ledgerTransfers.userId, uid), eq(ledgerTransfers.kind, 'debt_repayment')))
    ).reduce((sum, row) => sum + row.amountMinor, 0n);
  const expectSoundLedger = async () => {
    const report = await checkLedger(t.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
  };

  it('issue 14 debts (collect policy): a withdrawal above the balance less the debt is refused with OPEN_DEBT and moves nothing; one within it repays the debt first', async () => {
    const { who, request } = await indebted();
    expect(await owed(who)).toBe(amountToMinor('15.00'));
    const settings = await t.services.cashier.withdrawSettings(request);
    expect(settings.available_amount).toBe('25.00');

    const refused = await t.services.cashier.makeWithdrawal(request, { ...CARD, amount: '30' }).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      type: 'WithdrawalDeclinedException',
      errorData: { reason: 'OPEN_DEBT', errorType: 'OPEN_DEBT', owed_amount: '15.00', available_amount: '25.00' },
    });
    expect((await balances(who)).main).toBe(amountToMinor('40.00'));
    expect(await owed(who)).toBe(amountToMinor('15.00'));

    const made = await t.services.cashier.makeWithdrawal(request, { ...CARD, amount: '25' });
    expect(made.status).toBe('pending');
    expect((await balances(who)).main).toBe(0n);
    expect(await owed(who)).toBe(0n);
    expect(await repaid(who.uid)).toBe(amountToMinor('15.00'));
    await expectSoundLedger();
  });

  it.runIf(kind === 'postgres')(
    'issue 14 debts race: two withdrawals and a deposit that collects the same debt, from two processes, repay it once and reserve only what is left after it',
    async () => {
      const { who, request } = await indebted();
      const deposit = await t.services.cashier.startDeposit(request, {
        method: 'card',
        amount: '10',
        campaignOfferId: -1,
        flow: 'same_window',
        requisites: {},
      });
      const url = t.database.url ?? '';
      const withdraw = { op: 'withdraw' as const, userId: who.uid, amount: '20' };
      const [a, b] = await raceInProcesses([
        { url, calls: [withdraw] },
        {
          url,
          calls: [
            { op: 'deposit', siteId: who.siteId, paymentId: deposit.id, amountMinor: amountToMinor('10.00').toString() },
            withdraw,
          ],
        },
      ]);
      const withdrawals = [a![0]!, b![1]!];
      expect(b![0]).toMatchObject({ ok: true });
      // The deposit of 10.00 cannot repay the 15.00 owed alone: whatever the order, the first
      // withdrawal repays the debt, and 40.00 + 10.00 less 15.00 leaves room for one of 20.00.
      // Without the debt check both would leave with 40.00 and 5.00 would stay owed.
      expect(withdrawals.filter((outcome) => outcome.ok)).toHaveLength(1);
      const refusal = withdrawals.find((outcome) => !outcome.ok);
      expect(['WithdrawalDeclinedException', 'InvalidParameterException']).toContain(refusal && !refusal.ok && refusal.type);
      const after = await balances(who);
      expect(after.main).toBe(amountToMinor('15.00'));
      expect(after.withdrawal_pending).toBe(amountToMinor('20.00'));
      expect(await owed(who)).toBe(0n);
      expect(await repaid(who.uid)).toBe(amountToMinor('15.00'));
      await expectSoundLedger();
    },
    120_000,
  );
}

describe.each(testDatabaseKinds())('withdrawals and open debts on %s', suite);
