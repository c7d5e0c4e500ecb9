/**
 * Baccarat Royale and the punto banco rules it shares with Live Baccarat (issue 15: the
 * aggregator's baccarat; docs/games-rtp.md "Aggregator tables").
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ReturnStats } from '#common/games/statistics';
import { type Card } from './cards';
import { BACCARAT_SPOTS, type BaccaratSpot, bankerDraws, dealCoup, settleBaccaratSpot } from './baccarat-rules';
import { BACCARAT_ROYALE_LIMITS, baccaratRoyale } from './baccarat-royale';
import { card, dealing, seededRng } from './test-rng';

const coupOf = (...names: string[]) => {
  const cards = names.map(card);
  return dealCoup(() => {
    const next = cards.shift();
    if (!next) throw new Error('the scripted coup needs more cards');
    return next;
  });
};

describe('punto banco drawing rules', () => {
  it('follows the published banker tableau for every two-card total and player third card', () => {
    // Rows: banker total 0…7; columns: player third card 0…9, then "player stood". D = draws.
    const tableau = [
      'DDDDDDDDDD D',
      'DDDDDDDDDD D',
      'DDDDDDDDDD D',
      'DDDDDDDDSD D',
      'SSDDDDDDSS D',
      'SSSSDDDDSS D',
      'SSSSSSDDSS S',
      'SSSSSSSSSS S',
    ];
    tableau.forEach((row, bankerTotal) => {
      for (let third = 0; third <= 9; third++)
        expect(bankerDraws(bankerTotal, third), `banker ${bankerTotal}, third ${third}`).toBe(row[third] === 'D');
      expect(bankerDraws(bankerTotal, undefined), `banker ${bankerTotal}, player stood`).toBe(row[11] === 'D');
    });
  });

  it('stands on a natural 8 or 9 of either side', () => {
    const coup = coupOf('4s', '2h', '4d', '3c', 'Ks', 'Kh');
    expect(coup.player).toHaveLength(2);
    expect(coup.banker).toHaveLength(2);
    expect(coup.playerTotal).toBe(8);
    expect(coup.winner).toBe('player');
    const bankerNatural = coupOf('2s', '9h', '2d', 'Kc', 'Ks');
    expect(bankerNatural.player).toHaveLength(2);
    expect(bankerNatural.winner).toBe('banker');
  });

  it('the player draws on 0–5 and stands on 6–7; the banker then draws on 0–5 only when the player stood', () => {
    const playerStands = coupOf('3s', '2h', '3d', '3c', '9s');
    expect(playerStands.player).toHaveLength(2);
    expect(playerStands.banker).toHaveLength(3); // banker 5 draws when the player stood
    const playerDraws = coupOf('3s', '3h', '2d', '3c', '8s', 'Ks');
    expect(playerDraws.player).toHaveLength(3);
    expect(playerDraws.banker).toHaveLength(2); // banker 6 stands on a player third card of 8
    expect(playerDraws.playerTotal).toBe(3);
    expect(playerDraws.winner).toBe('banker');
  });

  it('counts tens and court cards as zero and totals modulo ten', () => {
    const coup = coupOf('Qs', 'Kh', '7d', '9c');
    expect(coup.playerTotal).toBe(7);
    expect(coup.bankerTotal).toBe(9);
  });
});

describe('baccarat payouts (stake included)', () => {
  const playerWin = coupOf('4s', '2h', '4d', '3c', 'Ks', 'Kh');
  const bankerWin = coupOf('2s', '9h', '2d', 'Kc', 'Ks');
  const tieWithPairs = coupOf('3s', '3h', '3d', '3c', 'Ks', 'Kh');

  it('player pays 1 to 1, banker 0.95 to 1 rounded down, tie 8 to 1', () => {
    expect(settleBaccaratSpot('player', 100n, playerWin)).toBe(200n);
    expect(settleBaccaratSpot('banker', 100n, playerWin)).toBe(0n);
    expect(settleBaccaratSpot('banker', 100n, bankerWin)).toBe(195n);
    expect(settleBaccaratSpot('banker', 101n, bankerWin)).toBe(196n); // 5 % commission on 101 is 5.05: the win 95.95 rounds down
    expect(settleBaccaratSpot('tie', 100n, tieWithPairs)).toBe(900n);
    expect(settleBaccaratSpot('tie', 100n, bankerWin)).toBe(0n);
  });

  it('a tie returns the player and banker stakes', () => {
    expect(tieWithPairs.winner).toBe('tie');
    expect(settleBaccaratSpot('player', 250n, tieWithPairs)).toBe(250n);
    expect(settleBaccaratSpot('banker', 250n, tieWithPairs)).toBe(250n);
  });

  it('a pair in a side’s first two cards pays 11 to 1', () => {
    expect(settleBaccaratSpot('playerPair', 100n, tieWithPairs)).toBe(1200n);
    expect(settleBaccaratSpot('bankerPair', 100n, tieWithPairs)).toBe(1200n);
    expect(settleBaccaratSpot('playerPair', 100n, playerWin)).toBe(1200n); // 4♠ 4♦
    expect(settleBaccaratSpot('bankerPair', 100n, playerWin)).toBe(0n);
  });
});

describe('Baccarat Royale rounds', () => {
  it('stakes the sum of the bets and pays what the dealt coup returns, in one step', () => {
    const step = baccaratRoyale.start(
      { bets: { banker: '500', tie: 100, playerPair: '0' } },
      dealing(8, ['4s', '2h', '4d', '3c', 'Ks', 'Kh']),
    );
    expect(step).toBeDefined();
    expect(step!.done).toBe(true);
    expect(step!.stakeMinor).toBe(600n);
    expect(step!.winMinor).toBe(0n); // the player's natural 8 beats banker 5
    const view = step!.view as { player: Card[]; banker: Card[]; winner: string; bets: Record<string, string> };
    expect(view.player).toEqual([card('4s'), card('4d')]);
    expect(view.banker).toEqual([card('2h'), card('3c')]);
    expect(view.winner).toBe('player');
    expect(view.bets).toEqual({ banker: '500', tie: '100' });
    expect(JSON.parse(JSON.stringify(step!.view))).toEqual(step!.view);
  });

  it('pays a winning player bet and a pair together', () => {
    const step = baccaratRoyale.start(
      { bets: { player: '1000', playerPair: '100' } },
      dealing(8, ['4s', '2h', '4d', '3c', 'Ks', 'Kh']),
    );
    expect(step!.winMinor).toBe(2000n + 1200n);
  });

  it('refuses negative, fractional, huge, out-of-limit stakes, unknown spots and empty bets', () => {
    const rng = seededRng(1);
    const invalid: unknown[] = [
      undefined,
      null,
      'player',
      [],
      {},
      { bets: {} },
      { bets: { player: 0 } },
      { bets: { player: -100 } },
      { bets: { player: '-100' } },
      { bets: { player: 100.5 } },
      { bets: { player: '100.5' } },
      { bets: { player: '1e3' } },
      { bets: { player: 1e300 } },
      { bets: { player: '9'.repeat(40) } },
      { bets: { player: Number(BACCARAT_ROYALE_LIMITS.minMinor) - 1 } },
      { bets: { player: (BACCARAT_ROYALE_LIMITS.maxMinor + 1n).toString() } },
      { bets: { dragon: 100 } },
      { bets: { player: 100, dragon: 100 } },
      { bets: { player: true } },
    ];
    for (const input of invalid) expect(baccaratRoyale.start(input, rng), JSON.stringify(input) ?? 'undefined').toBeUndefined();
    expect(baccaratRoyale.start({ bets: { player: BACCARAT_ROYALE_LIMITS.maxMinor.toString() } }, rng)).toBeDefined();
    expect(baccaratRoyale.start({ bets: { player: Number(BACCARAT_ROYALE_LIMITS.minMinor) } }, rng)).toBeDefined();
  });

  it('uses the catalogue’s limits', () => {
    const entry = JSON.parse(readFileSync('content/shared/_all/games/baccarat-royale.json', 'utf8'));
    expect(BACCARAT_ROYALE_LIMITS.minMinor).toBe(BigInt(Math.round(Number(entry.game_params.min_bet) * 100)));
    expect(BACCARAT_ROYALE_LIMITS.maxMinor).toBe(BigInt(Math.round(Number(entry.game_params.max_bet) * 100)));
  });
});

describe('baccarat RTP', () => {
  /**
   * Exact return of each spot over the eight-deck shoe: every ordered deal of six card values
   * (ten values; 128 zero-value cards and 32 of each other per 8 decks), weighted by its chance
   * without replacement, played through dealCoup. Published figures for 8 decks: banker 98.94 %,
   * player 98.76 %, tie at 8 to 1 85.64 %.
   */
  it('matches the published house edges exactly (eight decks)', () => {
    const counts = [128, 32, 32, 32, 32, 32, 32, 32, 32, 32];
    const total = { player: 0, banker: 0, tie: 0 };
    const cardOfValue = (value: number): Card => ({ rank: value === 0 ? 10 : value, suit: 'spades' });
    const deal: number[] = [];
    const recurse = (depth: number, weight: number, left: number) => {
      if (depth === 6) {
        let next = 0;
        const coup = dealCoup(() => cardOfValue(deal[next++]!));
        total.player += weight * Number(settleBaccaratSpot('player', 100n, coup));
        total.banker += weight * Number(settleBaccaratSpot('banker', 100n, coup));
        total.tie += weight * Number(settleBaccaratSpot('tie', 100n, coup));
        return;
      }
      for (let value = 0; value < 10; value++) {
        if (counts[value] === 0) continue;
        const chance = counts[value]! / left;
        counts[value]!--;
        deal[depth] = value;
        recurse(depth + 1, weight * chance, left - 1);
        counts[value]!++;
      }
    };
    recurse(0, 1, 416);
    expect(total.banker / 100).toBeCloseTo(0.9894, 4);
    expect(total.player / 100).toBeCloseTo(0.9876, 4);
    expect(total.tie / 100).toBeCloseTo(0.8564, 4);
    const entry = JSON.parse(readFileSync('content/shared/_all/games/baccarat-royale.json', 'utf8'));
    expect(Math.abs((total.banker / 100) * 100 - entry.game_params.rtp)).toBeLessThan(0.01); // the catalogue quotes the banker bet
  });

  it('simulated rounds return each spot’s RTP (4.5 standard errors)', () => {
    // 200 000 coups with a bet on every spot; the pair's chance with 8 decks is 31/415, so it
    // returns 12 × 31/415 = 89.64 %. σ per bet: about 0.95 (player/banker), 2.6 (tie), 3.2 (pairs).
    const rounds = 200_000;
    const rng = seededRng(2026);
    const expected: Record<BaccaratSpot, number> = {
      player: 0.9876,
      banker: 0.9894,
      tie: 0.8564,
      playerPair: (12 * 31) / 415,
      bankerPair: (12 * 31) / 415,
    };
    const stats = Object.fromEntries(BACCARAT_SPOTS.map((spot) => [spot, new ReturnStats()])) as Record<
      BaccaratSpot,
      ReturnStats
    >;
    const bets = Object.fromEntries(BACCARAT_SPOTS.map((spot) => [spot, '1000']));
    for (let i = 0; i < rounds; i++) {
      const view = baccaratRoyale.start({ bets }, rng)!.view as { returns: Record<BaccaratSpot, string> };
      for (const spot of BACCARAT_SPOTS) stats[spot].add(1000n, BigInt(view.returns[spot]));
    }
    for (const spot of BACCARAT_SPOTS)
      expect(Math.abs(stats[spot].rtp - expected[spot]), spot).toBeLessThan(4.5 * stats[spot].standardError);
  });
});
