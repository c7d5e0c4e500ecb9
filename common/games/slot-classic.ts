/**
 * "Royal Sevens", a classic 5×3 video slot with 10 paylines (slot-lines.ts has the shared rules
 * of reels, lines, wilds and scatters).
 *
 * Symbols: WILD (a crown: stands in for every symbol but the STAR, pays on its own), STAR
 * (scatter), SEVEN, BAR, BELL, A, K, Q, J.
 * Pays for 3 / 4 / 5 of a kind from the left, in line bets (a line bet is stake / 10):
 *   WILD 50 / 250 / 1000   SEVEN 25 / 100 / 500   BAR 15 / 60 / 250   BELL 10 / 40 / 150
 *   A 5 / 20 / 100         K 5 / 15 / 75          Q 4 / 10 / 50       J 3 / 8 / 40
 * STARs anywhere pay 2 / 10 / 50 times the stake for 3 / 4 / 5, and 3 or more award 10 free spins
 * played on the same reels at the same stake, where every win is tripled; free spins award no
 * further free spins (their STARs still pay, tripled).
 * Draws: 5 for the paid spin (one per reel, slot-lines.ts), then 5 for each free spin in turn.
 * Payout: ⌊stake × (line bets won) / 10⌋.
 * RTP, exact from the reel strips below (classicSlotRtp()):
 *   lines 74.127 % + scatter pays 2.167 % = 76.294 % a spin; free spins come once in 114.47 paid
 *   spins and return 10 × 3 × 76.294 % each time: 20.0 %; total 96.289 %.
 */
import { requireStake } from './payout';
import {
  TEN_PAYLINES,
  countScatters,
  evaluateLines,
  expectedLinePay,
  reelStrip,
  scatterCountChances,
  spinReels,
  type LineSlotRules,
  type SlotRound,
  type SlotSpinResult,
} from './slot-lines';
import type { Rng } from './fair';

export const CLASSIC_RULES: LineSlotRules = {
  strips: [
    reelStrip('WILD J BAR K BELL Q A J K Q BAR STAR SEVEN BELL A WILD J Q K BELL BAR A Q J K SEVEN BELL Q A'),
    reelStrip('A J WILD BAR K Q BELL A J K Q BELL BAR SEVEN A STAR J Q WILD K BELL Q A BAR J K BELL SEVEN Q'),
    reelStrip('Q SEVEN A J K BAR WILD Q BELL J A Q K BELL J BAR SEVEN A Q K WILD J BELL STAR Q A BAR J K BELL'),
    reelStrip('BELL Q A J SEVEN K BAR Q WILD BELL J A Q K BELL J BAR A Q SEVEN K J WILD BELL Q A BAR STAR J K'),
    reelStrip('BELL STAR Q J A SEVEN K Q BAR J BELL WILD A J Q K BELL BAR J A Q SEVEN K J BELL WILD Q A BAR J K'),
  ],
  paylines: TEN_PAYLINES,
  linePays: {
    WILD: [0, 0, 0, 50, 250, 1000],
    SEVEN: [0, 0, 0, 25, 100, 500],
    BAR: [0, 0, 0, 15, 60, 250],
    BELL: [0, 0, 0, 10, 40, 150],
    A: [0, 0, 0, 5, 20, 100],
    K: [0, 0, 0, 5, 15, 75],
    Q: [0, 0, 0, 4, 10, 50],
    J: [0, 0, 0, 3, 8, 40],
  },
  wild: 'WILD',
  scatter: 'STAR',
};

/** STARs anywhere, by count, in stakes. */
export const CLASSIC_SCATTER_PAYS = [0, 0, 0, 2, 10, 50] as const;
export const CLASSIC_FREE_SPINS = 10;
export const CLASSIC_FREE_SPIN_MULTIPLIER = 3;
const LINES = CLASSIC_RULES.paylines.length;

function classicSpin(rng: Rng, multiplier: number, isFree: boolean): SlotSpinResult {
  const reels = spinReels(CLASSIC_RULES.strips, rng);
  const lineWins = evaluateLines(reels.window, CLASSIC_RULES);
  const scatterCount = countScatters(reels.window, CLASSIC_RULES.scatter);
  const lineBets = lineWins.reduce((sum, win) => sum + win.pays, 0) + CLASSIC_SCATTER_PAYS[scatterCount]! * LINES;
  const freeSpinsAwarded = !isFree && scatterCount >= 3 ? CLASSIC_FREE_SPINS : 0;
  return { ...reels, lineWins, scatterCount, winLineBets: lineBets * multiplier, freeSpinsAwarded };
}

export function playClassicSlot(params: { stakeMinor: bigint }, rng: Rng): SlotRound {
  const stakeMinor = requireStake(params.stakeMinor);
  const paid = classicSpin(rng, 1, false);
  const spins = [paid];
  for (let i = 0; i < paid.freeSpinsAwarded; i++) spins.push(classicSpin(rng, CLASSIC_FREE_SPIN_MULTIPLIER, true));
  const winLineBets = spins.reduce((sum, spin) => sum + spin.winLineBets, 0);
  return { stakeMinor, spins, winLineBets, payoutMinor: (stakeMinor * BigInt(winLineBets)) / BigInt(LINES) };
}

/** The exact RTP and its parts, from the strips (see the header). */
export function classicSlotRtp(): { lines: number; scatters: number; triggerChance: number; freeSpins: number; total: number } {
  const lines = expectedLinePay(CLASSIC_RULES);
  const chances = scatterCountChances(CLASSIC_RULES.strips, CLASSIC_RULES.scatter);
  const scatters = chances.reduce((sum, chance, k) => sum + chance * CLASSIC_SCATTER_PAYS[k]!, 0);
  const triggerChance = chances[3]! + chances[4]! + chances[5]!;
  const freeSpins = triggerChance * CLASSIC_FREE_SPINS * CLASSIC_FREE_SPIN_MULTIPLIER * (lines + scatters);
  return { lines, scatters, triggerChance, freeSpins, total: lines + scatters + freeSpins };
}
