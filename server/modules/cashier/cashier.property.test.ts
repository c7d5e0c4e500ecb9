/**
 * Property (money issue; architecture §5 invariants): whatever random sequence of deposits,
 * provider notifications (replayed, duplicated, out of order), withdrawals, cancels and
 * operator decisions runs, with players acting concurrently and each player's own actions raced
 * in pairs, the ledger check passes and every player's balances equal what their payments'
 * final states say they should be.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { RecordingProvider } from '../../../test/recording-provider';
import { contacts, users } from '../../db/schema';
import { checkLedger } from '../wallet';
import type { ProviderStatus } from '../payments';
import type { PlayerRequest } from './service';
import { payments } from './tables';

type Action =
  | { kind: 'deposit'; amount: number; notifications: ProviderStatus[]; replays: number }
  | { kind: 'withdraw'; amount: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'decide'; pick: number; decision: 'approve' | 'decline'; payout: ProviderStatus; replays: number };

const status = fc.constantFrom<ProviderStatus>('pending', 'success', 'fail', 'cancel');
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    kind: fc.constant('deposit' as const),
    amount: fc.integer({ min: 10, max: 300 }),
    notifications: fc.array(status, { minLength: 1, maxLength: 4 }),
    replays: fc.integer({ min: 0, max: 2 }),
  }),
  fc.record({ kind: fc.constant('withdraw' as const), amount: fc.integer({ min: 20, max: 250 }) }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('decide' as const),
    pick: fc.nat(),
    decision: fc.constantFrom('approve' as const, 'decline' as const),
    payout: status,
    replays: fc.integer({ min: 0, max: 2 }),
  }),
);

/** An expected refusal (limits, balance, state) is part of the game; anything else fails the property. */
const EXPECTED_REFUSALS = new Set([
  'InvalidParameterException',
  'InvalidRequestException',
  'WithdrawalLimitsPeriodExceededException',
]);
async function tolerate(promise: Promise<unknown>): Promise<void> {
  try {
    await promise;
  } catch (error) {
    const type = (error as { type?: string }).type;
    if (!type || !EXPECTED_REFUSALS.has(type)) throw error;
  }
}

describe.each(testDatabaseKinds())('cashier properties on %s', (kind) => {
  let t: TestApp;
  const provider = new RecordingProvider();
  const players: PlayerRequest[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    t.services.paymentProviders.set('sandbox', provider);
    const site = await t.services.sites.resolveSite('127.0.0.1');
    for (let index = 0; index < 4; index++) {
      const user = (await t.services.accounts.createUser({
        siteId: site.id,
        login: `prop${index}-${kind}@example.com`,
        passwordHash: 'x',
        currency: 'EUR',
        locale: 'en',
        isSubscribed: false,
      }))!;
      await t.db.update(users).set({ isVerified: true }).where(eq(users.id, user.id));
      await t.db.update(contacts).set({ isConfirmed: true }).where(eq(contacts.userId, user.id));
      players.push({ site, user: { ...user, isVerified: true }, locale: 'en', origin: 'http://127.0.0.1' });
    }
  });
  afterAll(() => t.close());

  async function perform(player: PlayerRequest, step: Action): Promise<void> {
    const cashier = t.services.cashier;
    const mine = async (statusWanted: string) =>
      (await t.db.select().from(payments).where(eq(payments.userId, player.user.id))).filter(
        (row) => row.direction === 'withdrawal' && row.status === statusWanted,
      );
    switch (step.kind) {
      case 'deposit': {
        const started = await cashier.startDeposit(player, {
          method: 'card',
          amount: String(step.amount),
          campaignOfferId: -1,
          flow: 'same_window',
          requisites: {},
        });
        const events = step.notifications.map((notification) =>
          provider.event(started.id, notification, BigInt(step.amount) * 100n),
        );
        // Each notification delivered, some of them again, some concurrently.
        const deliveries = [...events, ...events.slice(0, step.replays)];
        await Promise.all(deliveries.map((event) => cashier.applyProviderEvent(player.site.id, 'sandbox', event)));
        return;
      }
      case 'withdraw':
        return tolerate(
          cashier.makeWithdrawal(player, {
            method: 'card',
            amount: String(step.amount),
            requisites: { card_holder: 'Ada Lovelace', card_number: '4242424242424242' },
          }),
        );
      case 'cancel': {
        const open = await mine('pending');
        const target = open[step.pick % Math.max(open.length, 1)];
        if (target) await tolerate(cashier.cancelWithdrawal(player, target.id));
        return;
      }
      case 'decide': {
        const open = await mine('pending');
        const target = open[step.pick % Math.max(open.length, 1)];
        if (!target) return;
        if (step.decision === 'decline') return tolerate(cashier.declineWithdrawal('prop', target.id, 'property test'));
        await tolerate(cashier.approveWithdrawal('prop', target.id));
        const event = provider.event(target.id, step.payout, target.amountMinor, 'payout');
        await Promise.all(
          Array.from({ length: 1 + step.replays }, () => cashier.applyProviderEvent(player.site.id, 'sandbox', event)),
        );
        return;
      }
    }
  }

  /** Balances implied by the payments' states: the model the ledger must agree with. */
  async function expectedBalances(userId: number) {
    const rows = await t.db.select().from(payments).where(eq(payments.userId, userId));
    let main = 0n;
    let pending = 0n;
    for (const row of rows) {
      if (row.direction === 'deposit' && row.status === 'success') main += row.amountMinor;
      if (row.direction === 'withdrawal' && ['pending', 'processing', 'success'].includes(row.status)) main -= row.amountMinor;
      if (row.direction === 'withdrawal' && ['pending', 'processing'].includes(row.status)) pending += row.amountMinor;
    }
    return { main, pending };
  }

  it('random concurrent cashier activity keeps every invariant', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(action, { minLength: 1, maxLength: 10 }), { minLength: players.length, maxLength: players.length }),
        async (scripts) => {
          await Promise.all(
            players.map(async (player, index) => {
              const script = scripts[index] ?? [];
              // A player's own actions run two at a time, as from two tabs.
              for (let at = 0; at < script.length; at += 2)
                await Promise.all(script.slice(at, at + 2).map((step) => perform(player, step)));
            }),
          );
          const report = await checkLedger(t.db);
          expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
          for (const player of players) {
            const balances = await t.services.wallet.balances(player.site.id, player.user.id, 'EUR');
            const expected = await expectedBalances(player.user.id);
            expect(balances.main).toBe(expected.main);
            expect(balances.withdrawal_pending).toBe(expected.pending);
          }
        },
      ),
      { numRuns: kind === 'postgres' ? 15 : 8 },
    );
  }, 240_000);
});
