/**
 * Red Fox "Baccarat Royale": punto banco (baccarat-rules.ts) played alone, one coup per round.
 * The client sends `{ bets: { player?, banker?, tie?, playerPair?, bankerPair? } }`, each stake in
 * minor units inside the catalogue's limits; at least one spot carries a stake. Player and banker
 * together are allowed (a hedge costs the commission and the edge twice, as in any casino).
 */
import type { PlayerTitle, RoundStep } from '../title';
import { BACCARAT_SPOTS, type BaccaratSpot, drawCoup, settleBaccaratSpot } from './baccarat-rules';
import { isRecord, limitsOf, parseOptionalStake } from './stakes';

/** The catalogue's min_bet / max_bet for baccarat-royale (checked against the JSON by the test). */
export const BACCARAT_ROYALE_LIMITS = limitsOf('1.00', '1000.00');

export type BaccaratBets = Partial<Record<BaccaratSpot, bigint>>;

export function parseBaccaratBets(input: unknown): BaccaratBets | undefined {
  if (!isRecord(input) || !isRecord(input.bets)) return undefined;
  const bets: BaccaratBets = {};
  for (const key of Object.keys(input.bets)) if (!(BACCARAT_SPOTS as readonly string[]).includes(key)) return undefined;
  for (const spot of BACCARAT_SPOTS) {
    const stake = parseOptionalStake(input.bets[spot], BACCARAT_ROYALE_LIMITS);
    if (stake === undefined) return undefined;
    if (stake > 0n) bets[spot] = stake;
  }
  return Object.keys(bets).length > 0 ? bets : undefined;
}

function play(input: unknown, rng: () => number): RoundStep | undefined {
  const bets = parseBaccaratBets(input);
  if (!bets) return undefined;
  const coup = drawCoup(rng);
  let stakeMinor = 0n;
  let winMinor = 0n;
  const returns: Record<string, string> = {};
  const staked: Record<string, string> = {};
  for (const [spot, stake] of Object.entries(bets) as [BaccaratSpot, bigint][]) {
    const back = settleBaccaratSpot(spot, stake, coup);
    stakeMinor += stake;
    winMinor += back;
    staked[spot] = stake.toString();
    returns[spot] = back.toString();
  }
  return {
    stakeMinor,
    winMinor,
    done: true,
    view: { kind: 'baccarat', bets: staked, returns, ...coup, winMinor: winMinor.toString() },
  };
}

export const baccaratRoyale: PlayerTitle = {
  id: 'baccarat-royale',
  provider: 'redfox',
  kind: 'baccarat',
  start: play,
};
