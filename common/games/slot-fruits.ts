/**
 * "Fruit Fiesta", a 5×3 fruit slot with 20 paylines and free spins on their own reels, where
 * wilds double the wins they are part of (slot-lines.ts has the shared rules of reels, lines,
 * wilds and scatters).
 *
 * Symbols: WILD (stands in for every fruit, not the BASKET; pays on its own), BASKET (scatter),
 * MELON, GRAPES, PLUM, ORANGE, LEMON, CHERRY.
 * Pays for 2 / 3 / 4 / 5 of a kind from the left, in line bets (a line bet is stake / 20):
 *   WILD – / 50 / 200 / 750    MELON – / 20 / 80 / 400   GRAPES – / 15 / 50 / 200
 *   PLUM – / 10 / 30 / 120     ORANGE – / 5 / 20 / 80    LEMON – / 5 / 15 / 60
 *   CHERRY 2 / 4 / 10 / 40
 * BASKETs anywhere pay 1 / 5 / 25 times the stake for 3 / 4 / 5 and award 8 / 12 / 20 free
 * spins. Free spins run on the free-spin reels (more wilds), at the same stake; a line win with
 * a wild in it pays double; 3 or more BASKETs during free spins pay and add 8 more spins. A round
 * plays at most 500 free spins (reaching that needs some sixty retriggers in a row: chance
 * below 10⁻⁶⁰).
 * Draws: 5 for the paid spin (one per reel, slot-lines.ts), then 5 for each free spin in turn.
 * Payout: ⌊stake × (line bets won) / 20⌋.
 * RTP, exact from the reel strips below (fruitsSlotRtp()), by Wald's identity for the free
 * spins (each is independent of how many came before):
 *   paid spin: lines 74.525 % + BASKET pays 1.311 % = 75.836 %;
 *   free spins: 0.09260 expected per paid spin (8 / 12 / 20 on a trigger, once in 95.98 spins,
 *   ÷ (1 − 8 × 0.907 % retriggers)), each returning 213.71 % + 1.13 %: 19.894 %;
 *   total 95.731 %.
 */
import { requireStake } from './payout';
import {
  FRUIT_PAYLINES,
  countScatters,
  evaluateLines,
  expectedLinePay,
  reelStrip,
  scatterCountChances,
  spinReels,
  type LineSlotRules,
  type LineWin,
  type SlotRound,
  type SlotSpinResult,
} from './slot-lines';
import type { Rng } from './fair';

const LINE_PAYS = {
  WILD: [0, 0, 0, 50, 200, 750],
  MELON: [0, 0, 0, 20, 80, 400],
  GRAPES: [0, 0, 0, 15, 50, 200],
  PLUM: [0, 0, 0, 10, 30, 120],
  ORANGE: [0, 0, 0, 5, 20, 80],
  LEMON: [0, 0, 0, 5, 15, 60],
  CHERRY: [0, 0, 2, 4, 10, 40],
};

export const FRUITS_RULES: LineSlotRules = {
  strips: [
    reelStrip(
      'WILD GRAPES LEMON PLUM CHERRY ORANGE LEMON CHERRY GRAPES LEMON BASKET MELON PLUM ORANGE CHERRY LEMON ORANGE PLUM GRAPES LEMON CHERRY ORANGE MELON PLUM LEMON CHERRY ORANGE',
    ),
    reelStrip(
      'ORANGE LEMON GRAPES CHERRY WILD PLUM ORANGE LEMON CHERRY LEMON ORANGE PLUM GRAPES MELON CHERRY BASKET LEMON ORANGE CHERRY PLUM LEMON GRAPES CHERRY ORANGE LEMON PLUM MELON CHERRY',
    ),
    reelStrip(
      'CHERRY ORANGE MELON LEMON GRAPES CHERRY WILD PLUM ORANGE LEMON CHERRY LEMON ORANGE PLUM GRAPES CHERRY MELON LEMON ORANGE CHERRY WILD PLUM BASKET LEMON GRAPES CHERRY ORANGE LEMON PLUM',
    ),
    reelStrip(
      'PLUM CHERRY ORANGE LEMON MELON CHERRY GRAPES PLUM ORANGE LEMON CHERRY LEMON ORANGE PLUM WILD CHERRY GRAPES LEMON MELON ORANGE CHERRY PLUM LEMON CHERRY ORANGE GRAPES BASKET LEMON',
    ),
    reelStrip(
      'PLUM CHERRY BASKET ORANGE LEMON MELON CHERRY GRAPES PLUM ORANGE LEMON CHERRY LEMON ORANGE PLUM CHERRY GRAPES LEMON WILD ORANGE MELON CHERRY PLUM LEMON CHERRY ORANGE GRAPES LEMON',
    ),
  ],
  paylines: FRUIT_PAYLINES,
  linePays: LINE_PAYS,
  wild: 'WILD',
  scatter: 'BASKET',
};

/** The same game on the free-spin reels: the fruits as on the paid reels, more wilds. */
export const FRUITS_FREE_SPIN_RULES: LineSlotRules = {
  ...FRUITS_RULES,
  strips: [
    reelStrip(
      'WILD GRAPES LEMON CHERRY PLUM ORANGE LEMON CHERRY GRAPES LEMON BASKET MELON PLUM ORANGE CHERRY WILD LEMON ORANGE CHERRY PLUM GRAPES LEMON CHERRY ORANGE MELON PLUM LEMON CHERRY ORANGE',
    ),
    reelStrip(
      'ORANGE LEMON WILD GRAPES CHERRY PLUM ORANGE LEMON CHERRY LEMON ORANGE PLUM GRAPES MELON CHERRY BASKET LEMON WILD ORANGE CHERRY PLUM LEMON GRAPES CHERRY ORANGE LEMON PLUM MELON CHERRY',
    ),
    reelStrip(
      'CHERRY ORANGE MELON LEMON WILD GRAPES CHERRY PLUM ORANGE LEMON CHERRY LEMON WILD ORANGE PLUM GRAPES CHERRY MELON LEMON ORANGE CHERRY PLUM BASKET LEMON WILD GRAPES CHERRY ORANGE LEMON PLUM',
    ),
    reelStrip(
      'PLUM CHERRY ORANGE LEMON MELON WILD CHERRY GRAPES PLUM ORANGE LEMON CHERRY LEMON ORANGE WILD PLUM CHERRY GRAPES LEMON MELON ORANGE CHERRY PLUM LEMON WILD CHERRY ORANGE GRAPES BASKET LEMON',
    ),
    reelStrip(
      'PLUM CHERRY BASKET ORANGE LEMON MELON CHERRY GRAPES PLUM ORANGE LEMON WILD CHERRY LEMON ORANGE PLUM CHERRY GRAPES LEMON ORANGE MELON CHERRY PLUM LEMON WILD CHERRY ORANGE GRAPES LEMON',
    ),
  ],
};

/** BASKETs anywhere, by count: pays in stakes and free spins awarded. */
export const FRUITS_SCATTER_PAYS = [0, 0, 0, 1, 5, 25] as const;
export const FRUITS_FREE_SPINS = [0, 0, 0, 8, 12, 20] as const;
export const FRUITS_RETRIGGER_SPINS = 8;
export const FRUITS_MAX_FREE_SPINS = 500;
const LINES = FRUIT_PAYLINES.length;

/** In free spins a win with a wild in it pays double. */
const freeSpinLineMultiplier = (win: Pick<LineWin, 'hasWild'>) => (win.hasWild ? 2 : 1);

function fruitsSpin(rng: Rng, isFree: boolean): SlotSpinResult {
  const rules = isFree ? FRUITS_FREE_SPIN_RULES : FRUITS_RULES;
  const reels = spinReels(rules.strips, rng);
  const lineWins = evaluateLines(reels.window, rules);
  if (isFree) for (const win of lineWins) win.pays *= freeSpinLineMultiplier(win);
  const scatterCount = countScatters(reels.window, rules.scatter);
  const winLineBets = lineWins.reduce((sum, win) => sum + win.pays, 0) + FRUITS_SCATTER_PAYS[scatterCount]! * LINES;
  const freeSpinsAwarded = scatterCount < 3 ? 0 : isFree ? FRUITS_RETRIGGER_SPINS : FRUITS_FREE_SPINS[scatterCount]!;
  return { ...reels, lineWins, scatterCount, winLineBets, freeSpinsAwarded };
}

export function playFruitsSlot(params: { stakeMinor: bigint }, rng: Rng): SlotRound {
  const stakeMinor = requireStake(params.stakeMinor);
  const paid = fruitsSpin(rng, false);
  const spins = [paid];
  let remaining = Math.min(paid.freeSpinsAwarded, FRUITS_MAX_FREE_SPINS);
  for (let played = 0; remaining > 0; played++, remaining--) {
    const spin = fruitsSpin(rng, true);
    spins.push(spin);
    remaining = Math.min(remaining + spin.freeSpinsAwarded, FRUITS_MAX_FREE_SPINS - played);
  }
  const winLineBets = spins.reduce((sum, spin) => sum + spin.winLineBets, 0);
  return { stakeMinor, spins, winLineBets, payoutMinor: (stakeMinor * BigInt(winLineBets)) / BigInt(LINES) };
}

/** The exact RTP and its parts, from the strips (see the header). */
export function fruitsSlotRtp(): {
  lines: number;
  scatters: number;
  triggerChance: number;
  retriggerChance: number;
  freeSpinsPerPaidSpin: number;
  freeSpinReturn: number;
  freeSpins: number;
  total: number;
} {
  const lines = expectedLinePay(FRUITS_RULES);
  const paidChances = scatterCountChances(FRUITS_RULES.strips, FRUITS_RULES.scatter);
  const scatters = paidChances.reduce((sum, chance, k) => sum + chance * FRUITS_SCATTER_PAYS[k]!, 0);
  const freeChances = scatterCountChances(FRUITS_FREE_SPIN_RULES.strips, FRUITS_RULES.scatter);
  const retriggerChance = freeChances[3]! + freeChances[4]! + freeChances[5]!;
  const freeSpinReturn =
    expectedLinePay(FRUITS_FREE_SPIN_RULES, freeSpinLineMultiplier) +
    freeChances.reduce((sum, chance, k) => sum + chance * FRUITS_SCATTER_PAYS[k]!, 0);
  // Each free spin adds 8 more with the retrigger chance: E[spins] = awarded / (1 − 8 · chance).
  const freeSpinsPerPaidSpin =
    paidChances.reduce((sum, chance, k) => sum + chance * FRUITS_FREE_SPINS[k]!, 0) /
    (1 - FRUITS_RETRIGGER_SPINS * retriggerChance);
  const freeSpins = freeSpinsPerPaidSpin * freeSpinReturn;
  const triggerChance = paidChances[3]! + paidChances[4]! + paidChances[5]!;
  return {
    lines,
    scatters,
    triggerChance,
    retriggerChance,
    freeSpinsPerPaidSpin,
    freeSpinReturn,
    freeSpins,
    total: lines + scatters + freeSpins,
  };
}
