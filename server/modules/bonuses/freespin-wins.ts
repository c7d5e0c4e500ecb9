/**
 * Free spins whose wins are bonus money (issue 13: "a freespin pack whose winnings become a bonus
 * with its own wagering"): the wins of one pack gather in one casino bonus, granted on the first
 * winning spin and grown by each later one, wagered `multiplier` times its amount. The spin's
 * payout goes to the house's bonus cost (round-intake transfers.ts); from there the bonus takes
 * it onto the player's bonus balance as any bonus's grant does, so the bonus balance is always
 * the sum of the active casino bonuses' balances.
 */
import { and, eq } from 'drizzle-orm';
import { isApiError } from '#common/errors';
import type { Executor } from '../../db/retry';
import { house, move, player, type WalletService } from '../wallet';
import { activateBonus, grantBonus, updateBonus, type LifecycleDeps } from './lifecycle';
import { bonusProgramme } from './programme';
import type { BonusTemplate } from './rules';
import { bonuses, type BonusRow } from './tables';

export interface FreespinWin {
  siteId: string;
  userId: number;
  currency: string;
  packId: number;
  roundId: number;
  /** The pack's wagering multiplier (above 0: its wins are bonus money). */
  multiplier: number;
  winMinor: bigint;
}

/** The terms of a pack's winnings bonus when the site names no `freespins_template_id` of its own. */
function defaultTerms(multiplier: number): BonusTemplate {
  return {
    id: 'freespin-wins',
    type: 'casino',
    amount: { kind: 'fixed', amounts: {} },
    wagering: { multiplier, base: 'bonus' },
    contributions: { types: { slot: 100, fast: 50, casino: 10, live: 10 }, games: {} },
    claim_hours: 24 * 30,
    wagering_hours: 24 * 30,
    texts: {
      en: { title: 'Free spins winnings', text: 'What your free spins won, to wager before it can be withdrawn.' },
      it: { title: 'Vincite dei giri gratuiti', text: 'Le vincite dei giri gratuiti, da puntare prima di poterle prelevare.' },
    },
  };
}

export function createFreespinWins(deps: {
  wallet: WalletService;
  lifecycle: LifecycleDeps;
  siteSettingsIn: (tx: Executor, siteId: string) => Promise<Record<string, unknown> | undefined>;
}) {
  /** The pack's bonus that still takes wins (available or active), locked. */
  async function packBonus(tx: Executor, win: FreespinWin): Promise<BonusRow | undefined> {
    const [row] = await tx
      .select()
      .from(bonuses)
      .where(
        and(
          eq(bonuses.siteId, win.siteId),
          eq(bonuses.userId, win.userId),
          eq(bonuses.source, 'freespins'),
          eq(bonuses.sourceRef, `pack:${win.packId}`),
        ),
      )
      .for('update');
    return row;
  }

  /** The first win of a pack (or the first after its bonus ended): a new bonus, active unless the rules keep it waiting. */
  async function grantNew(tx: Executor, win: FreespinWin, sourceRef: string): Promise<void> {
    const programme = bonusProgramme(await deps.siteSettingsIn(tx, win.siteId));
    const named = programme.freespinsTemplateId ? programme.templates.get(programme.freespinsTemplateId) : undefined;
    const template = named
      ? { ...named, wagering: { multiplier: win.multiplier, base: 'bonus' as const } }
      : defaultTerms(win.multiplier);
    const { row } = await grantBonus(tx, deps.lifecycle, {
      ...win,
      template,
      jurisdiction: programme.jurisdiction,
      amountMinor: win.winMinor,
      source: 'freespins',
      sourceRef,
    });
    try {
      await activateBonus(tx, deps.lifecycle, { siteId: win.siteId, userId: win.userId, bonusId: row.id }, programme);
    } catch (error) {
      // Isolation (one casino bonus at a time) or the jurisdiction keeps it available, to activate later.
      if (!isApiError(error) || error.type !== 'InvalidParameterException') throw error;
    }
  }

  return {
    /** Adds a winning free spin to its pack's bonus, in the spin's transaction. */
    async credit(tx: Executor, win: FreespinWin): Promise<void> {
      if (win.winMinor <= 0n) return;
      const row = await packBonus(tx, win);
      if (!row) return grantNew(tx, win, `pack:${win.packId}`);
      if (row.status !== 'available' && row.status !== 'active')
        return grantNew(tx, win, `pack:${win.packId}:round:${win.roundId}`);
      const grown = {
        amountMinor: row.amountMinor + win.winMinor,
        wageringRequiredMinor: row.wageringRequiredMinor + win.winMinor * BigInt(win.multiplier),
      };
      if (row.status === 'available') return void (await updateBonus(tx, row.id, grown));
      await deps.wallet.transfer(
        {
          siteId: win.siteId,
          userId: win.userId,
          kind: 'bonus_grant',
          currency: win.currency,
          amountMinor: win.winMinor,
          legs: move(house('bonus_cost', win.userId), player(win.userId, 'bonus'), win.winMinor),
          idempotencyKey: `bonus:${row.id}:freespin:${win.roundId}`,
          reference: `bonus:${row.id}`,
          actor: `player:${win.userId}`,
          reason: `${row.terms.texts?.en?.title ?? 'Free spins winnings'}: free spin win added`,
        },
        tx,
      );
      await updateBonus(tx, row.id, { ...grown, balanceMinor: row.balanceMinor + win.winMinor });
    },
  };
}
