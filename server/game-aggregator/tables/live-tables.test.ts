/**
 * The LiveWave shared tables (issue 15: a live-dealer-style table with a shared round; docs/games-rtp.md
 * "Aggregator tables"): bet validation, each payout case, and RTP.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ReturnStats } from '#common/games/statistics';
import type { SharedTable } from '../title';
import { AUTO_ROULETTE_LIMITS, RED_NUMBERS, WHEEL_ORDER, autoRoulette } from './auto-roulette';
import { LIGHTNING_WHEEL_LIMITS, STRIKE_CHANCE, WHEEL_SEGMENTS, lightningWheel, spotRtp } from './lightning-wheel';
import { LIVE_BACCARAT_LIMITS, liveBaccarat } from './live-baccarat';
import { LIVE_BLACKJACK_LIMITS, liveBlackjackVip } from './live-blackjack-vip';
import { type CommonDrawRound, chartAction, playCommonDraw } from './live-blackjack-rules';
import { SHARED_TABLES } from './index';
import { card, dealing, seededRng } from './test-rng';
import type { StakeLimits } from './stakes';

const catalogue = (id: string) => JSON.parse(readFileSync(`content/shared/_all/games/${id}.json`, 'utf8')).game_params;
const LIMITS: Record<string, StakeLimits> = {
  'live-baccarat': LIVE_BACCARAT_LIMITS,
  'auto-roulette': AUTO_ROULETTE_LIMITS,
  'lightning-wheel': LIGHTNING_WHEEL_LIMITS,
  'live-blackjack-vip': LIVE_BLACKJACK_LIMITS,
};

describe.each(SHARED_TABLES.map((table) => [table.id, table] as const))('%s bets', (id, table: SharedTable) => {
  const limits = LIMITS[id]!;
  const spot = table.spots[0]!;

  it('takes a stake inside the catalogue’s limits on a known spot, as a number or a string of digits', () => {
    const game = catalogue(id);
    expect(limits.minMinor).toBe(BigInt(Math.round(Number(game.min_bet) * 100)));
    expect(limits.maxMinor).toBe(BigInt(Math.round(Number(game.max_bet) * 100)));
    expect(table.parseBet({ spot, stake: Number(limits.minMinor) })).toEqual({ spot, stakeMinor: limits.minMinor });
    expect(table.parseBet({ spot, stake: limits.maxMinor.toString() })).toEqual({ spot, stakeMinor: limits.maxMinor });
  });

  it('refuses negative, fractional, huge or out-of-limit stakes and unknown spots', () => {
    const invalid: unknown[] = [
      undefined,
      { spot },
      { spot, stake: -Number(limits.minMinor) },
      { spot, stake: `-${limits.minMinor}` },
      { spot, stake: Number(limits.minMinor) + 0.5 },
      { spot, stake: `${limits.minMinor}.5` },
      { spot, stake: '1e4' },
      { spot, stake: 1e300 },
      { spot, stake: '9'.repeat(30) },
      { spot, stake: Number(limits.minMinor) - 1 },
      { spot, stake: (limits.maxMinor + 1n).toString() },
      { spot: 'nowhere', stake: Number(limits.minMinor) },
      { spot: '__proto__', stake: Number(limits.minMinor) },
      { spot: 1, stake: Number(limits.minMinor) },
    ];
    for (const input of invalid) expect(table.parseBet(input), JSON.stringify(input) ?? 'undefined').toBeUndefined();
  });

  it('draws JSON-safe outcomes that settle the same after a JSON round trip', () => {
    const rng = seededRng(7);
    for (let i = 0; i < 200; i++) {
      const outcome = table.draw(rng);
      const stored = JSON.parse(JSON.stringify(outcome));
      expect(stored).toEqual(outcome);
      for (const each of table.spots) {
        const bet = { spot: each, stakeMinor: 1000n };
        expect(table.settle(bet, stored)).toBe(table.settle(bet, outcome));
      }
    }
  });
});

describe('Live Baccarat', () => {
  it('settles each spot of a dealt coup like punto banco', () => {
    // Player 4♠ 4♦ (natural 8) against banker 2♥ 3♣, then a tie with both pairs.
    const playerWins = liveBaccarat.draw(dealing(8, ['4s', '2h', '4d', '3c']));
    expect(liveBaccarat.settle({ spot: 'player', stakeMinor: 100n }, playerWins)).toBe(200n);
    expect(liveBaccarat.settle({ spot: 'banker', stakeMinor: 100n }, playerWins)).toBe(0n);
    expect(liveBaccarat.settle({ spot: 'playerPair', stakeMinor: 100n }, playerWins)).toBe(1200n);
    const tie = liveBaccarat.draw(dealing(8, ['3s', '3h', '3d', '3c', 'Ks', 'Kh']));
    expect(liveBaccarat.settle({ spot: 'tie', stakeMinor: 100n }, tie)).toBe(900n);
    expect(liveBaccarat.settle({ spot: 'banker', stakeMinor: 100n }, tie)).toBe(100n);
    expect(liveBaccarat.settle({ spot: 'bankerPair', stakeMinor: 100n }, tie)).toBe(1200n);
  });

  it('refuses to settle an outcome whose winner does not follow from its cards', () => {
    const outcome = liveBaccarat.draw(dealing(8, ['4s', '2h', '4d', '3c'])) as Record<string, unknown>;
    expect(() => liveBaccarat.settle({ spot: 'banker', stakeMinor: 100n }, { ...outcome, winner: 'banker' })).toThrow();
  });

  it('the banker bet returns the catalogue’s 98.94 % over simulated rounds (4.5 standard errors)', () => {
    const stats = new ReturnStats();
    const rng = seededRng(11);
    for (let i = 0; i < 200_000; i++)
      stats.add(1000n, liveBaccarat.settle({ spot: 'banker', stakeMinor: 1000n }, liveBaccarat.draw(rng)));
    expect(Math.abs(stats.rtp - catalogue('live-baccarat').rtp / 100)).toBeLessThan(4.5 * stats.standardError);
  });
});

describe('Auto Roulette (European, single zero)', () => {
  it('the wheel holds each pocket 0–36 once, and 18 red numbers', () => {
    expect([...WHEEL_ORDER].sort((a, b) => a - b)).toEqual(Array.from({ length: 37 }, (_, n) => n));
    expect(RED_NUMBERS.size).toBe(18);
  });

  it('a bet on n numbers returns 36/n × the stake on them and nothing elsewhere; zero loses every outside bet', () => {
    for (const spot of autoRoulette.spots) {
      let winners = 0;
      let returned = 0n;
      for (let pocket = 0; pocket <= 36; pocket++) {
        const back = autoRoulette.settle({ spot, stakeMinor: 120n }, { kind: 'roulette', pocket, color: 'green' });
        if (back > 0n) winners++;
        returned += back;
      }
      expect(returned, spot).toBe(120n * 36n); // Σ over the 37 pockets: every spot returns 36/37
      expect(back(spot, 0), spot).toBe(spot === 'straight-0' ? 120n * 36n : 0n);
      expect([1, 12, 18]).toContain(winners);
    }
    function back(spot: string, pocket: number) {
      return autoRoulette.settle({ spot, stakeMinor: 120n }, { kind: 'roulette', pocket, color: 'green' });
    }
    expect(back('red', 1)).toBe(240n);
    expect(back('black', 2)).toBe(240n);
    expect(back('dozen-3', 36)).toBe(360n);
    expect(back('column-1', 34)).toBe(360n);
    expect(back('straight-17', 17)).toBe(120n * 36n);
  });

  it('draws every pocket equally often (chi-square, 36 degrees of freedom)', () => {
    const rng = seededRng(5);
    const counts = new Array<number>(37).fill(0);
    const spins = 370_000;
    for (let i = 0; i < spins; i++) counts[(autoRoulette.draw(rng) as { pocket: number }).pocket]!++;
    const chi = counts.reduce((sum, count) => sum + (count - spins / 37) ** 2 / (spins / 37), 0);
    expect(chi).toBeLessThan(67.0); // the 0.1 % critical value for 36 degrees of freedom
    expect(catalogue('auto-roulette').rtp).toBeCloseTo((36 / 37) * 100, 1);
  });
});

describe('Lightning Wheel', () => {
  it('has 54 segments: 24 × 1, 15 × 2, 8 × 5, 4 × 10, 2 × 20, 1 × 40', () => {
    const count = (value: number) => WHEEL_SEGMENTS.filter((segment) => segment === value).length;
    expect(WHEEL_SEGMENTS).toHaveLength(54);
    expect([1, 2, 5, 10, 20, 40].map(count)).toEqual([24, 15, 8, 4, 2, 1]);
  });

  it('a winning number pays number to 1, a struck one number × multiplier to 1; other numbers lose', () => {
    const at = (value: number) => WHEEL_SEGMENTS.indexOf(value);
    expect(lightningWheel.settle({ spot: '5', stakeMinor: 100n }, { kind: 'wheel', segment: at(5), value: 5, strikes: {} })).toBe(
      600n,
    );
    expect(
      lightningWheel.settle({ spot: '5', stakeMinor: 100n }, { kind: 'wheel', segment: at(5), value: 5, strikes: { '5': 3 } }),
    ).toBe(1600n);
    expect(
      lightningWheel.settle(
        { spot: '40', stakeMinor: 10n },
        { kind: 'wheel', segment: at(40), value: 40, strikes: { '40': 10 } },
      ),
    ).toBe(4010n);
    expect(
      lightningWheel.settle({ spot: '2', stakeMinor: 100n }, { kind: 'wheel', segment: at(5), value: 5, strikes: { '2': 10 } }),
    ).toBe(0n);
    // The winning number comes from the segment, never from the outcome's other fields.
    expect(
      lightningWheel.settle({ spot: '40', stakeMinor: 100n }, { kind: 'wheel', segment: at(1), value: 40, strikes: {} }),
    ).toBe(0n);
  });

  it('every number returns 96.1 % ± 0.1 %, as the catalogue says', () => {
    for (const spot of lightningWheel.spots)
      expect(Math.abs(spotRtp(spot) - catalogue('lightning-wheel').rtp / 100), spot).toBeLessThan(0.001);
  });

  it('simulated rounds return each number’s RTP and strike it as often as its chance (4.5 standard errors)', () => {
    // 400 000 spins, a bet on every number each spin. σ per bet runs from 1.1 (number 1) to 8.8 (40).
    const rng = seededRng(19);
    const spins = 400_000;
    const stats = Object.fromEntries(lightningWheel.spots.map((spot) => [spot, new ReturnStats()]));
    const strikes = Object.fromEntries(lightningWheel.spots.map((spot) => [spot, 0]));
    for (let i = 0; i < spins; i++) {
      const outcome = lightningWheel.draw(rng) as { strikes: Record<string, number> };
      for (const spot of lightningWheel.spots) {
        stats[spot]!.add(100n, lightningWheel.settle({ spot, stakeMinor: 100n }, outcome));
        if (outcome.strikes[spot] !== undefined) strikes[spot]!++;
      }
    }
    for (const spot of lightningWheel.spots) {
      expect(Math.abs(stats[spot]!.rtp - spotRtp(spot)), spot).toBeLessThan(4.5 * stats[spot]!.standardError);
      const chance = STRIKE_CHANCE[spot]! / 10_000;
      expect(Math.abs(strikes[spot]! / spins - chance), spot).toBeLessThan(4.5 * Math.sqrt((chance * (1 - chance)) / spins));
    }
  });
});

describe('Live Blackjack VIP (common draw)', () => {
  const deal = (...names: string[]) => playCommonDraw(dealing(8, names));

  it('the chart stands on 17+, hits 12–16 against 7–ace, stands 13–16 against 2–6 and doubles 10/11', () => {
    const up = (name: string) => card(name);
    expect(chartAction([card('Ks'), card('7h')], up('As'))).toBe('stand');
    expect(chartAction([card('Ks'), card('6h')], up('7s'))).toBe('hit');
    expect(chartAction([card('Ks'), card('3h')], up('6s'))).toBe('stand');
    expect(chartAction([card('Ks'), card('2h')], up('3s'))).toBe('hit');
    expect(chartAction([card('6s'), card('5h')], up('Ks'))).toBe('double');
    expect(chartAction([card('6s'), card('4h')], up('Ks'))).toBe('hit');
    expect(chartAction([card('As'), card('7h')], up('9s'))).toBe('hit');
    expect(chartAction([card('As'), card('7h')], up('8s'))).toBe('stand');
  });

  it('one deal settles every stake: a hand blackjack pays 3 to 2; against a dealer blackjack only a blackjack pushes', () => {
    const blackjack = deal('As', '9h', 'Kd', '8c');
    expect((blackjack as CommonDrawRound).result).toBe('blackjack');
    expect(liveBlackjackVip.settle({ spot: 'hand', stakeMinor: 1000n }, blackjack)).toBe(2500n);
    expect(liveBlackjackVip.settle({ spot: 'hand', stakeMinor: 501n }, blackjack)).toBe(1252n); // 1252.5 rounds down
    const dealerBlackjack = deal('Ks', 'Ah', '9d', 'Qc');
    expect(liveBlackjackVip.settle({ spot: 'hand', stakeMinor: 1000n }, dealerBlackjack)).toBe(0n);
    expect(liveBlackjackVip.settle({ spot: 'hand', stakeMinor: 1000n }, deal('As', 'Ah', 'Kd', 'Qc'))).toBe(1000n);
  });

  it('a win pays 1 to 1, a push returns the stake, a bust loses before the dealer draws', () => {
    // Hand K 9 = 19 stands; dealer 10 7 = 17 stands on all 17s.
    const win = deal('Ks', '10h', '9d', '7c');
    expect(liveBlackjackVip.settle({ spot: 'hand', stakeMinor: 1000n }, win)).toBe(2000n);
    const push = deal('Ks', '10h', '7d', '7c');
    expect(liveBlackjackVip.settle({ spot: 'hand', stakeMinor: 1000n }, push)).toBe(1000n);
    // Hand K 6 = 16 against a 10: hits the 8 and busts; the dealer's 10 6 does not draw.
    const bust = deal('Ks', '10h', '6d', '6c', '8s') as CommonDrawRound;
    expect(bust.result).toBe('lose');
    expect(bust.dealer).toHaveLength(2);
    expect(liveBlackjackVip.settle({ spot: 'hand', stakeMinor: 1000n }, bust)).toBe(0n);
  });

  it('the dealer stands on soft 17', () => {
    const round = deal('Ks', 'Ah', '8d', '6c') as CommonDrawRound;
    expect(round.dealer).toHaveLength(2);
    expect(round.result).toBe('win');
  });

  it('a doubled hand takes one card; its win pays 3 to 2 and its loss costs only the stake', () => {
    const doubledWin = deal('6s', '10h', '5d', '7c', 'Ks') as CommonDrawRound;
    expect(doubledWin.doubled).toBe(true);
    expect(doubledWin.hand).toHaveLength(3);
    expect(liveBlackjackVip.settle({ spot: 'hand', stakeMinor: 1000n }, doubledWin)).toBe(2500n);
    const doubledLoss = deal('6s', '10h', '5d', '9c', '2s') as CommonDrawRound;
    expect(doubledLoss.hand).toHaveLength(3);
    expect(liveBlackjackVip.settle({ spot: 'hand', stakeMinor: 1000n }, doubledLoss)).toBe(0n);
  });

  it('pairs pays perfect 25, coloured 12, mixed 6 to 1 on the hand’s first two cards', () => {
    const pairs = (a: string, b: string) => liveBlackjackVip.settle({ spot: 'pairs', stakeMinor: 100n }, deal(a, 'Kc', b, '9c'));
    expect(pairs('8s', '8s')).toBe(2600n);
    expect(pairs('8s', '8c')).toBe(1300n);
    expect(pairs('8h', '8c')).toBe(700n);
    expect(pairs('8h', '9h')).toBe(0n);
  });

  it('the hand bet returns the catalogue’s 99.28 % over simulated rounds (4.5 standard errors)', () => {
    // 10⁶ rounds; σ ≈ 1.01 stakes, so 4.5 standard errors are 0.45 %. The pairs bet returns
    // (26 × 7 + 13 × 8 + 7 × 16) / 415 = 95.90 % with eight decks (4.10 % published edge).
    const rng = seededRng(21);
    const hand = new ReturnStats();
    const pairs = new ReturnStats();
    for (let i = 0; i < 1_000_000; i++) {
      const outcome = liveBlackjackVip.draw(rng);
      hand.add(1000n, liveBlackjackVip.settle({ spot: 'hand', stakeMinor: 1000n }, outcome));
      pairs.add(1000n, liveBlackjackVip.settle({ spot: 'pairs', stakeMinor: 1000n }, outcome));
    }
    expect(Math.abs(hand.rtp - catalogue('live-blackjack-vip').rtp / 100)).toBeLessThan(4.5 * hand.standardError);
    expect(Math.abs(pairs.rtp - 0.959)).toBeLessThan(4.5 * pairs.standardError);
  });
});
