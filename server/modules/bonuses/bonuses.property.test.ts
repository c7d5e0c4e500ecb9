/**
 * Property (issue 13 "Tests and benchmark"): whatever random sequence of deposits with offers,
 * bets across game categories (slot, fast, mines), wins, promo codes, cashback grants and
 * payouts, withdrawals that burn bonuses, forfeits and bonus activations runs — players acting at
 * the same time, and on PostgreSQL each player's own actions raced in pairs — afterwards:
 *
 * - the ledger check passes, and each player's bonus account is the sum of their active casino
 *   bonuses' balances;
 * - wagering progress never went down while a bonus was active (watched after every step);
 * - no converted bonus paid more real money than its cap;
 * - bonus money never reached main before wagering completed: every round's payout to main is
 *   exactly the real share of its stake's share of the payout, and the only transfers from the
 *   bonus account to main are conversions of bonuses that are converted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { and, eq, inArray } from 'drizzle-orm';
import { amountToMinor } from '#common/money';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { RecordingProvider } from '../../../test/recording-provider';
import { signedInPlayer } from '../../../test/player';
import { contacts, ledgerAccounts, ledgerPostings, ledgerTransfers, users } from '../../db/schema';
import type { Gambler } from '../round-intake';
import { checkLedger } from '../wallet';
import { bonuses } from './tables';

type Action =
  | { kind: 'deposit'; amount: number; offer: 'welcome' | 'none' }
  | { kind: 'bet'; game: 'slot' | 'dice' | 'mines'; stakeCents: number }
  | { kind: 'promo' }
  | { kind: 'cashback'; lossCents: number }
  | { kind: 'withdraw'; amount: number }
  | { kind: 'forfeit' }
  | { kind: 'activate' };

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('deposit' as const),
      amount: fc.integer({ min: 20, max: 120 }),
      offer: fc.constantFrom('welcome' as const, 'none' as const),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('bet' as const),
      game: fc.constantFrom('slot' as const, 'dice' as const, 'mines' as const),
      stakeCents: fc.integer({ min: 10, max: 600 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('promo' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('cashback' as const), lossCents: fc.integer({ min: 100, max: 20_000 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('withdraw' as const), amount: fc.integer({ min: 20, max: 60 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forfeit' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('activate' as const) }) },
);

/** A slot bet within the promo bonus's stake limit (2.00), which only bonus money can fund at first. */
const firstBonusBet: fc.Arbitrary<Action> = fc.record({
  kind: fc.constant('bet' as const),
  game: fc.constant('slot' as const),
  stakeCents: fc.integer({ min: 10, max: 200 }),
});

/** Refusals a player meets in play (limits, balances, rules, states); anything else fails the property. */
const EXPECTED_REFUSALS = new Set([
  'InvalidParameterException',
  'InvalidRequestException',
  'UserNeedDepositException',
  'WithdrawalDeclinedException',
  'WithdrawalLimitsExceededException',
  'WithdrawalLimitsPeriodExceededException',
]);

/** An API answer's data, or its error thrown with its type (so the refusal table can tell it). */
function accept<T>(answer: { json: { data?: unknown; error?: { type: string } } }): T {
  if (answer.json.error) throw Object.assign(new Error(answer.json.error.type), { type: answer.json.error.type });
  return answer.json.data as T;
}

const SITE_HOST = '127.0.0.1';
const WITHDRAWAL = {
  method: 'bank-transfer',
  'requisites[bank]': 'DEUTDEFF',
  'requisites[account_holder]': 'Ada Lovelace',
  'requisites[iban]': 'DE89370400440532013000',
  burn_bonuses: '1',
};

describe.each(testDatabaseKinds())('bonus engine properties on %s', (kind) => {
  let t: TestApp;
  const provider = new RecordingProvider();
  let sequence = 0;

  beforeAll(async () => {
    t = await createTestApp(kind);
    t.services.paymentProviders.set('sandbox', provider);
  });
  afterAll(() => t.close());

  async function newPlayer() {
    const player = await signedInPlayer(t);
    await t.db.update(users).set({ isVerified: true }).where(eq(users.id, player.uid));
    await t.db.update(contacts).set({ isConfirmed: true }).where(eq(contacts.userId, player.uid));
    const site = await t.services.sites.resolveSite(SITE_HOST);
    const gambler: Gambler = {
      siteId: site.id,
      uid: player.uid,
      visitorId: '',
      locale: 'en',
      siteCurrency: site.defaultCurrency,
    };
    return { ...player, gambler, currency: site.defaultCurrency };
  }
  type Player = Awaited<ReturnType<typeof newPlayer>>;

  /** Runs one action; a refusal from the expected table is part of play. */
  async function run(who: Player, step: Action, welcomeOfferId: number): Promise<void> {
    try {
      await perform(who, step, welcomeOfferId);
    } catch (error) {
      const type = (error as { type?: string }).type;
      if (!type || !EXPECTED_REFUSALS.has(type)) throw error;
    }
  }

  async function perform(who: Player, step: Action, welcomeOfferId: number): Promise<void> {
    const { browser, gambler } = who;
    const requestId = `prop-${kind}-${sequence++}`;
    switch (step.kind) {
      case 'deposit': {
        const offer: Record<string, string> = step.offer === 'welcome' ? { campaign_offer_id: String(welcomeOfferId) } : {};
        const { id } = accept<{ id: string }>(
          await browser.call('cashier.makedeposit', { method: 'card', amount: String(step.amount), ...offer }),
        );
        await t.services.cashier.applyProviderEvent(
          gambler.siteId,
          'sandbox',
          provider.event(id, 'success', BigInt(step.amount) * 100n),
        );
        return;
      }
      case 'bet': {
        const stake = (step.stakeCents / 100).toFixed(2);
        if (step.game === 'mines') {
          const opened = await t.services.statefulRounds.start(gambler, {
            sysname: 'mines-field',
            mode: 'real',
            bet: JSON.stringify({ stake, mines: 3 }),
            requestId,
          });
          const next = await t.services.statefulRounds.act(gambler, {
            roundId: Number(opened.round.id),
            action: 'reveal',
            params: { cell: step.stakeCents % 25 },
            requestId: `${requestId}-r`,
          });
          if (next.round.status === 'open')
            await t.services.statefulRounds.act(gambler, {
              roundId: Number(opened.round.id),
              action: 'cashout',
              params: {},
              requestId: `${requestId}-c`,
            });
          return;
        }
        const bet = step.game === 'slot' ? { stake } : { stake, direction: 'under', target: '49.50' };
        await t.services.gameRounds.play(gambler, {
          sysname: step.game === 'slot' ? 'aurora-fortune' : 'dice-roll',
          mode: 'real',
          bet: JSON.stringify(bet),
          requestId,
        });
        return;
      }
      case 'promo':
        accept(await browser.call('campaigns.activateOffer', { promo_code: 'WELCOME10' }));
        return;
      case 'cashback': {
        const { row } = await t.services.cashbacks.grantByOperator({
          siteId: gambler.siteId,
          userId: gambler.uid,
          currency: who.currency,
          netLossMinor: BigInt(step.lossCents),
          operator: 'property',
          reason: 'property test',
        });
        accept(await browser.call('cashbacks.payout', { cashback_id: String(row.id) }));
        return;
      }
      case 'withdraw':
        accept(await browser.call('cashier.makewithdrawal', { ...WITHDRAWAL, amount: String(step.amount) }));
        return;
      case 'forfeit':
        await t.services.bonuses.forfeitActive(gambler.siteId, gambler.uid, `player:${gambler.uid}`);
        return;
      case 'activate': {
        const page = await t.services.bonuses.list(gambler.siteId, gambler.uid, {
          type: 'casino',
          statuses: ['available'],
          offset: 0,
          count: 1,
          locale: 'en',
        });
        const first = page.items[0];
        if (first) await t.services.bonuses.activate(gambler.siteId, gambler.uid, first.id, 'casino', 'en');
        return;
      }
    }
  }

  /** Wagering of each bonus while active, as last seen: it may only grow. */
  async function watchWagering(who: Player, seen: Map<number, bigint>): Promise<void> {
    const rows = await t.db.select().from(bonuses).where(eq(bonuses.userId, who.uid));
    for (const row of rows) {
      if (row.status !== 'active') continue;
      const before = seen.get(row.id) ?? 0n;
      expect(row.wageredMinor, `bonus ${row.id} wagering went back`).toBeGreaterThanOrEqual(before);
      seen.set(row.id, row.wageredMinor);
    }
  }

  /** Stakes the bonus paid part of, over every run: the property must have reached the bet path with bonus money. */
  let bonusFundedStakes = 0;

  async function checkInvariants(players: Player[]): Promise<void> {
    const report = await checkLedger(t.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
    for (const who of players) {
      const rows = await t.db.select().from(bonuses).where(eq(bonuses.userId, who.uid));
      expect(await t.services.bonuses.balanceMismatches(who.gambler.siteId, who.uid, who.currency)).toEqual([]);
      for (const row of rows) {
        const cap = row.terms.max_conversion?.[row.currency];
        if (cap !== undefined) expect(row.convertedMinor).toBeLessThanOrEqual(amountToMinor(cap));
      }
      await expectNoBonusMoneyInMain(who, rows);
    }
  }

  /** Every movement into main from bonus money is a conversion of a converted bonus, and every round pays main only its real share. */
  async function expectNoBonusMoneyInMain(who: Player, rows: (typeof bonuses.$inferSelect)[]) {
    const postings = await t.db
      .select({
        transferId: ledgerPostings.transferId,
        amountMinor: ledgerPostings.amountMinor,
        type: ledgerAccounts.type,
        ownerKind: ledgerAccounts.ownerKind,
        kind: ledgerTransfers.kind,
        reference: ledgerTransfers.reference,
      })
      .from(ledgerPostings)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
      .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerPostings.transferId))
      .where(and(eq(ledgerTransfers.userId, who.uid), inArray(ledgerTransfers.kind, ['game_bet', 'game_win', 'bonus_convert'])));
    const byTransfer = new Map<number, typeof postings>();
    for (const posting of postings) byTransfer.set(posting.transferId, [...(byTransfer.get(posting.transferId) ?? []), posting]);
    const leg = (legs: typeof postings, owner: string, type: string) =>
      legs.filter((item) => item.ownerKind === owner && item.type === type).reduce((sum, item) => sum + item.amountMinor, 0n);

    const converted = new Set(rows.filter((row) => row.status === 'converted').map((row) => `bonus:${row.id}`));
    const stakes = new Map<string, { fromMain: bigint; fromBonus: bigint }>();
    for (const legs of byTransfer.values()) {
      const first = legs[0];
      if (first?.kind === 'bonus_convert') expect(converted.has(first.reference ?? '')).toBe(true);
      if (first?.kind === 'game_bet') {
        const earlier = stakes.get(first.reference ?? '') ?? { fromMain: 0n, fromBonus: 0n };
        const fromBonus = -leg(legs, 'player', 'bonus');
        if (fromBonus > 0n) bonusFundedStakes++;
        stakes.set(first.reference ?? '', {
          fromMain: earlier.fromMain - leg(legs, 'player', 'main'),
          fromBonus: earlier.fromBonus + fromBonus,
        });
      }
    }
    for (const legs of byTransfer.values()) {
      const first = legs[0];
      if (first?.kind !== 'game_win') continue;
      const stake = stakes.get(first.reference ?? '');
      if (!stake) continue;
      const payout = -leg(legs, 'house', 'game');
      const total = stake.fromMain + stake.fromBonus;
      const bonusShare = total === 0n ? 0n : (payout * stake.fromBonus) / total;
      // Main gets the real share; the bonus share went to the bonus (or to the house when the bonus had ended).
      expect(leg(legs, 'player', 'main')).toBe(payout - bonusShare);
    }
  }

  it('random deposits with offers, bets, promo codes, cashbacks, withdrawals and forfeits keep every bonus invariant', async () => {
    const welcomeOfferId = await (async () => {
      const { browser } = await signedInPlayer(t);
      const offers = browser.data<{ id: number; promotions?: { template_id?: string }[] }[]>(
        await browser.call('campaigns.getoffers', {}, 'GET'),
      );
      const offer = offers[0];
      if (!offer) throw new Error('the site offers no deposit offer');
      return offer.id;
    })();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(firstBonusBet, fc.array(action, { minLength: 3, maxLength: 10 })), { minLength: 2, maxLength: 3 }),
        async (plans) => {
          const players = await Promise.all(plans.map(() => newPlayer()));
          const seen = new Map<number, bigint>();
          await Promise.all(
            players.map(async (who, index) => {
              // Every player starts with the promo code's bonus active and no real money, and bets on
              // it within its stake limit: the bet path meets bonus money in every run, whatever follows.
              const [firstBet, plan] = plans[index] ?? [];
              const steps: Action[] = [{ kind: 'promo' }, ...(firstBet ? [firstBet] : []), ...(plan ?? [])];
              // On PostgreSQL a player's own steps run two at a time: each pair races on that player's rows.
              const width = kind === 'postgres' ? 2 : 1;
              for (let at = 0; at < steps.length; at += width) {
                await Promise.all(steps.slice(at, at + width).map((step) => run(who, step, welcomeOfferId)));
                await watchWagering(who, seen);
              }
            }),
          );
          await checkInvariants(players);
        },
      ),
      { numRuns: kind === 'postgres' ? 5 : 4 },
    );
    // The runs did reach the bet path with bonus money (the property is not vacuous).
    expect(bonusFundedStakes).toBeGreaterThan(0);
  });
});
