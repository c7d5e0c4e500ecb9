/**
 * Betting bonuses on the bet slip (issue 14 "the stake leaves the main balance (or a free bet /
 * betting bonus through the bonus engine's service, minimum odds honoured)"): the player's active
 * betting bonuses with money left, and what the slip checks before asking the server, which checks
 * again (bonuses/betting.ts): a free bet is staked whole, split evenly over the bet's lines, at
 * combined odds of at least its minimum; betting bonus money may stake any part of its balance,
 * and only bets at its minimum odds count towards its wagering.
 */
import { useEffect, useState } from 'react';
import type { BonusView } from '#common/contract/bonuses';
import type { SlipSelectionInput } from '#common/contract/sportsbook-bets';
import type { Locale } from '#common/locale';
import { amountToMinor, minorToAmount } from '#common/money';
import { browserApi } from '~/api/client';
import { oddsUnits } from './slip';

/** Betting bonuses the player can stake from now: active, with money left. */
export function useBettingBonuses(isSignedIn: boolean, locale: Locale, refreshKey: unknown) {
  const [bonuses, setBonuses] = useState<BonusView[]>([]);
  useEffect(() => {
    if (!isSignedIn) {
      setBonuses([]);
      return;
    }
    let isCurrent = true;
    browserApi(locale)
      .call('BettingBonuses.get', { status: 'active', count: 50 })
      .then((page) => {
        if (isCurrent)
          setBonuses(page.items.filter((bonus) => bonus.type === 'betting' && amountToMinor(bonus.balance.amount) > 0n));
      })
      // Without the list the slip stakes from the main balance only, as it would with no bonus.
      .catch(() => isCurrent && setBonuses([]));
    return () => {
      isCurrent = false;
    };
  }, [isSignedIn, locale, refreshKey]);
  return bonuses;
}

/** The slip's combined odds as the server's minimum-odds rule reads them: the product of every selection's price. */
export function combinedOdds(selections: readonly Pick<SlipSelectionInput, 'odds'>[]): number {
  return selections.reduce((odds, selection) => odds * (Number(oddsUnits(selection.odds)) / 10_000), 1);
}

/**
 * A free bet's stake per line: its whole balance over the lines, when it splits into whole cents;
 * null when it does not (the player picks another bet type).
 */
export function freeBetStakePerLine(bonus: Pick<BonusView, 'balance'>, lines: number): string | null {
  if (lines <= 0) return null;
  const whole = amountToMinor(bonus.balance.amount);
  return whole % BigInt(lines) === 0n ? minorToAmount(whole / BigInt(lines)) : null;
}

/** Whether the slip's combined odds meet the bonus's minimum (a bonus without one takes any odds). */
export function meetsMinOdds(bonus: Pick<BonusView, 'min_odds'>, odds: number): boolean {
  // The very comparison the server makes (bonuses/rules.ts bettingBetCounts), so the two agree.
  return bonus.min_odds === null || odds >= bonus.min_odds;
}
