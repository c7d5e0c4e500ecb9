/**
 * The bet slip's state (issue 14 "Bet slip"): the selections the player clicked and the settings
 * of the slip, kept in localStorage so a reload or the next visit finds them as they were. Read
 * only after hydration, so the server's page and the first client render agree.
 */
import { useCallback, useEffect, useState } from 'react';
import { NAMED_SYSTEMS, SLIP_MAX_SELECTIONS, expandLines, type BetType, type NamedSystem } from '#common/sportsbook/bet-types';
import type { SlipSelectionInput } from '#common/contract/sportsbook-bets';
import { formatOdds, oddsRatio, parseOdds, ODDS_SCALE } from '#common/sportsbook/odds';
import { floorTimes, product } from '#common/sportsbook/ratio';
import { freeBetReturnMinor } from '#common/sportsbook/free-bet';
import type { Locale } from '#common/locale';
import { ODDS_CHANGE_ACCEPTANCES, ODDS_FORMATS, type OddsChangeAcceptance, type OddsFormat } from '#common/sportsbook/types';
import { amountToMinor } from '#common/money';

/** A selection as the slip shows it: what placeBet needs, plus the names the player read. */
export interface SlipSelection extends SlipSelectionInput {
  event_name: string;
  market_name: string;
  outcome_name: string;
}

const SLIP_KEY = 'sportsbook.slip';
const ODDS_FORMAT_KEY = 'sportsbook.oddsFormat';
const ODDS_CHANGE_KEY = 'sportsbook.oddsChange';

export const selectionKey = (selection: Pick<SlipSelectionInput, 'event_id' | 'market_key' | 'outcome_id'>) =>
  `${selection.event_id}|${selection.market_key}|${selection.outcome_id}`;

function readSlip(): SlipSelection[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(SLIP_KEY) ?? '[]');
    if (!Array.isArray(stored)) return [];
    return stored
      .filter((item): item is SlipSelection =>
        ['event_id', 'market_key', 'outcome_id', 'odds', 'event_name', 'market_name', 'outcome_name'].every(
          (field) => typeof (item as Record<string, unknown>)[field] === 'string',
        ),
      )
      .slice(0, SLIP_MAX_SELECTIONS);
  } catch {
    // A slip another version of the site wrote, or none: start empty.
    return [];
  }
}

/** A string setting in localStorage, limited to its allowed values. */
function useStoredChoice<T extends string>(key: string, choices: readonly T[], fallback: T) {
  const [value, setValue] = useState<T>(fallback);
  useEffect(() => {
    const stored = localStorage.getItem(key);
    if (stored && (choices as readonly string[]).includes(stored)) setValue(stored as T);
  }, [key, choices]);
  const choose = useCallback(
    (next: T) => {
      setValue(next);
      localStorage.setItem(key, next);
    },
    [key],
  );
  return [value, choose] as const;
}

export function useBetSlip() {
  const [selections, setSelections] = useState<SlipSelection[]>([]);
  const [isRestored, setRestored] = useState(false);
  const [oddsFormat, setOddsFormat] = useStoredChoice<OddsFormat>(ODDS_FORMAT_KEY, ODDS_FORMATS, 'decimal');
  const [oddsChange, setOddsChange] = useStoredChoice<OddsChangeAcceptance>(ODDS_CHANGE_KEY, ODDS_CHANGE_ACCEPTANCES, 'none');

  useEffect(() => {
    setSelections(readSlip());
    setRestored(true);
  }, []);
  useEffect(() => {
    if (isRestored) localStorage.setItem(SLIP_KEY, JSON.stringify(selections));
  }, [selections, isRestored]);

  const toggle = useCallback((selection: SlipSelection) => {
    setSelections((current) => {
      const key = selectionKey(selection);
      if (current.some((item) => selectionKey(item) === key)) return current.filter((item) => selectionKey(item) !== key);
      return current.length >= SLIP_MAX_SELECTIONS ? current : [...current, selection];
    });
  }, []);
  const remove = useCallback(
    (key: string) => setSelections((current) => current.filter((item) => selectionKey(item) !== key)),
    [],
  );
  /** Takes the price the server quoted for one selection (an accepted odds change). */
  const setOdds = useCallback(
    (index: number, odds: string) =>
      setSelections((current) => current.map((item, at) => (at === index ? { ...item, odds } : item))),
    [],
  );
  const clear = useCallback(() => setSelections([]), []);

  return { selections, toggle, remove, setOdds, clear, oddsFormat, setOddsFormat, oddsChange, setOddsChange };
}

export type BetSlipState = ReturnType<typeof useBetSlip>;

/** The bet types a slip of n selections can be placed as: single, multiple, every k/n system, the named systems of n. */
export function betTypesFor(count: number): BetType[] {
  if (count === 0) return [];
  const types: BetType[] = [{ kind: 'single' }];
  if (count >= 2) types.push({ kind: 'multiple' });
  for (let size = 2; size < count; size++) types.push({ kind: 'system', size });
  for (const name of Object.keys(NAMED_SYSTEMS) as NamedSystem[])
    if (NAMED_SYSTEMS[name].selections === count) types.push({ kind: 'named', name });
  return types;
}

/** A slip price in ten-thousandths; a price the slip cannot read counts as 1.00 (the stake back). */
export function oddsUnits(text: string): bigint {
  try {
    return parseOdds(text);
  } catch {
    return ODDS_SCALE;
  }
}

/** The price in the player's format; the raw text when it cannot be read. */
export function showOdds(text: string, format: OddsFormat, locale: Locale): string {
  try {
    return formatOdds(parseOdds(text), format, locale);
  } catch {
    return text;
  }
}

/**
 * Lines, total stake and potential return (every line winning) in minor units, as the server
 * quotes them; a free bet's return is its winnings only (its stake is not returned).
 */
export function quote(
  betType: BetType,
  selections: readonly SlipSelectionInput[],
  stake: string,
  options: { freeBet?: boolean } = {},
): { lines: number; totalMinor: bigint; returnMinor: bigint } {
  const lines = expandLines(betType, selections.length);
  let stakeMinor: bigint;
  try {
    stakeMinor = /^\d{1,9}(\.\d{1,2})?$/.test(stake) ? amountToMinor(stake) : 0n;
  } catch {
    stakeMinor = 0n;
  }
  const odds = selections.map((selection) => oddsRatio(oddsUnits(selection.odds)));
  // Exact product of the line's prices, rounded down per line, as the server's quoteSlip does.
  const returnMinor = lines.reduce(
    (sum, line) => sum + floorTimes(stakeMinor, product(line.map((index) => odds[index] ?? oddsRatio(ODDS_SCALE)))),
    0n,
  );
  const totalMinor = stakeMinor * BigInt(lines.length);
  return {
    lines: lines.length,
    totalMinor,
    returnMinor: options.freeBet ? freeBetReturnMinor(returnMinor, totalMinor) : returnMinor,
  };
}
