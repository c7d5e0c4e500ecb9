import { describe, expect, it } from 'vitest';
import { InvalidBetError } from './errors';
import { createFairRng } from './fair';
import { settleLiveRoulette, spinLiveRoulette, validateLiveRouletteBets } from './live-roulette';
import { pocketColor, settleRoulette, type RouletteBet } from './roulette';
import { SIMULATION_TIMEOUT_MS, simulateRounds } from './statistics';

const STAKE = 100n;
const TABLE_SEEDS = { serverSeed: 'table-7-round-seed', clientSeed: 'table-7', nonce: 42 };

describe('live roulette (the shared wheel settles with roulette’s rules)', () => {
  it('settles each player’s bets against the table’s one spin', () => {
    const spin = spinLiveRoulette(createFairRng(TABLE_SEEDS));
    const straight = settleLiveRoulette([{ kind: 'straight', numbers: [spin.pocket], stakeMinor: STAKE }], spin);
    expect(straight.payoutMinor).toBe(36n * STAKE);
    expect(spin.color).toBe(pocketColor(spin.pocket));
    expect(spinLiveRoulette(createFairRng(TABLE_SEEDS))).toEqual(spin);
  });
});

describe('live roulette outcome', () => {
  it('spins one pocket from the table’s stream, uniformInt(37), the same for everyone who recomputes it', () => {
    const first = createFairRng(TABLE_SEEDS).nextUint32();
    expect(spinLiveRoulette(createFairRng(TABLE_SEEDS)).pocket).toBe(first % 37);
  });

  it('settles any mix of bets exactly as the single-player table does', () => {
    const bets: RouletteBet[] = [
      { kind: 'corner', numbers: [1, 2, 4, 5], stakeMinor: STAKE },
      { kind: 'column', index: 2, stakeMinor: STAKE },
      { kind: 'black', stakeMinor: STAKE },
    ];
    for (let pocket = 0; pocket < 37; pocket++)
      expect(settleLiveRoulette(bets, { pocket, color: pocketColor(pocket) })).toEqual(settleRoulette(bets, pocket));
  });

  it('refuses bets that are not on the layout when they are placed', () => {
    expect(() => validateLiveRouletteBets([{ kind: 'split', numbers: [1, 5], stakeMinor: STAKE }])).toThrow(InvalidBetError);
  });
});

describe('live roulette RTP by simulation', () => {
  it(
    'returns 36/37 on the table’s stream: 200 000 spins of a red bet within 4.5 standard errors',
    () => {
      // Red returns 2 with chance 18/37: σ = 2 · √(18/37 · 19/37) = 0.9996, so 200 000 spins
      // have a standard error of 0.0022 and the tolerance is ±1.0 %.
      const rounds = 200_000;
      const bets: RouletteBet[] = [{ kind: 'red', stakeMinor: STAKE }];
      const stats = simulateRounds(rounds, (rng) => settleLiveRoulette(bets, spinLiveRoulette(rng)), {
        serverSeed: 'live-table-simulation',
        clientSeed: 'table-1',
      });
      const sigma = 2 * Math.sqrt((18 / 37) * (19 / 37));
      expect(Math.abs(stats.rtp - 36 / 37)).toBeLessThan((4.5 * sigma) / Math.sqrt(rounds));
    },
    SIMULATION_TIMEOUT_MS,
  );
});
