/** Three Card Poker (issue 15: the aggregator's three-card poker; docs/games-rtp.md "Aggregator tables"). */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ReturnStats } from '#common/games/statistics';
import { type Card, cardOf } from './cards';
import { ABANDONED_ROUND_ACTION, THREE_CARD_POKER_LIMITS, threeCardPoker } from './three-card-poker';
import { PAIR_PLUS, dealerQualifies, evaluateHand, optimalPlays } from './three-card-poker-rules';
import { card, dealing, seededRng } from './test-rng';

const hand = (...names: string[]) => names.map(card);
const score = (...names: string[]) => evaluateHand(hand(...names)).score;

/** Plays one scripted round: player cards first, then the dealer's. */
function round(player: string[], dealer: string[], ante: string, pairPlus: string, action: 'play' | 'fold') {
  const rng = dealing(1, [...player, ...dealer]);
  const first = threeCardPoker.start({ ante, pairPlus }, rng)!;
  const last = threeCardPoker.act!(JSON.parse(JSON.stringify(first.state)), { action }, rng)!;
  return { first, last, view: last.view as { outcome: string; dealer: Card[]; returns: Record<string, string> } };
}

describe('three-card hand ranking', () => {
  it('orders straight flush > three of a kind > straight > flush > pair > high card', () => {
    const ladder = [
      score('Ks', 'Js', '9h'),
      score('2s', '2h', '4d'),
      score('2s', '5s', '9s'),
      score('4s', '5h', '6d'),
      score('7s', '7h', '7d'),
      score('4s', '5s', '6s'),
    ];
    for (let i = 1; i < ladder.length; i++) expect(ladder[i]).toBeGreaterThan(ladder[i - 1]!);
  });

  it('A-2-3 is the lowest straight and Q-K-A the highest', () => {
    expect(evaluateHand(hand('As', '2h', '3d')).hand).toBe('straight');
    expect(score('As', '2h', '3d')).toBeLessThan(score('2s', '3h', '4d'));
    expect(score('Qs', 'Kh', 'Ad')).toBeGreaterThan(score('Js', 'Qh', 'Kd'));
    expect(evaluateHand(hand('Ks', 'Ah', '2d')).hand).toBe('high');
  });

  it('compares pairs by the pair, then the kicker; equal hands tie whatever the suits', () => {
    expect(score('9s', '9h', '2d')).toBeGreaterThan(score('8s', '8h', 'Ad'));
    expect(score('9s', '9h', '5d')).toBeGreaterThan(score('9d', '9c', '4d'));
    expect(score('As', 'Jh', '5d')).toBe(score('Ad', 'Jc', '5h'));
  });

  it('the dealer qualifies with queen high or better', () => {
    expect(dealerQualifies(hand('Qs', '5h', '2d'))).toBe(true);
    expect(dealerQualifies(hand('Js', '9h', '2d'))).toBe(false);
    expect(dealerQualifies(hand('2s', '2h', '3d'))).toBe(true);
    expect(dealerQualifies(hand('As', '2h', '3d'))).toBe(true);
  });
});

describe('Three Card Poker rounds', () => {
  it('the first step stakes ante and pair plus and shows only the player’s cards', () => {
    const { first } = round(['Ks', 'Kh', '4d'], ['Qs', '5h', '2d'], '200', '100', 'play');
    expect(first.done).toBe(false);
    expect(first.stakeMinor).toBe(300n);
    expect(first.winMinor).toBe(0n);
    expect(first.view).not.toHaveProperty('dealer');
    expect((first.view as { player: Card[] }).player).toEqual(hand('Ks', 'Kh', '4d'));
  });

  it('play stakes the ante again; a dealer without queen high pays the ante 1 to 1 and returns the play bet', () => {
    const { last, view } = round(['9s', '7h', '4d'], ['Js', '9h', '2d'], '200', '0', 'play');
    expect(last.stakeMinor).toBe(200n);
    expect(view.outcome).toBe('dealer-not-qualified');
    expect(last.winMinor).toBe(400n + 200n);
    expect(last.done).toBe(true);
  });

  it('against a qualifying dealer the better hand wins ante and play 1 to 1; equal hands push; a worse one loses both', () => {
    expect(round(['Ks', 'Kh', '4d'], ['Qs', '5h', '2d'], '200', '0', 'play').last.winMinor).toBe(800n);
    const tie = round(['As', 'Jh', '5d'], ['Ad', 'Jc', '5h'], '200', '0', 'play');
    expect(tie.view.outcome).toBe('tie');
    expect(tie.last.winMinor).toBe(400n);
    const lose = round(['Ks', '9h', '4d'], ['As', '5h', '2d'], '200', '0', 'play');
    expect(lose.view.outcome).toBe('lose');
    expect(lose.last.winMinor).toBe(0n);
  });

  it('the ante bonus pays straight 1, three of a kind 4, straight flush 5 to 1 even when the dealer wins', () => {
    const straightLoses = round(['4s', '5h', '6d'], ['7s', '8s', '9s'], '100', '0', 'play');
    expect(straightLoses.view.outcome).toBe('lose');
    expect(straightLoses.last.winMinor).toBe(100n);
    expect(round(['7s', '7h', '7d'], ['Qs', '5h', '2d'], '100', '0', 'play').last.winMinor).toBe(400n + 400n);
    expect(round(['4s', '5s', '6s'], ['Qd', '5h', '2d'], '100', '0', 'play').last.winMinor).toBe(400n + 500n);
  });

  it('pair plus pays pair 1, flush 3, straight 6, trips 30, straight flush 40 to 1, also after a fold', () => {
    const cases: [string[], bigint][] = [
      [['9s', '9h', '4d'], 2n],
      [['2s', '9s', '4s'], 4n],
      [['4s', '5h', '6d'], 7n],
      [['7s', '7h', '7d'], 31n],
      [['4s', '5s', '6s'], 41n],
      [['Ks', '9h', '4d'], 0n],
    ];
    for (const [player, times] of cases) {
      const folded = round(player, ['Qc', '5c', '2c'], '100', '100', 'fold');
      expect(folded.view.outcome).toBe('fold');
      expect(folded.last.stakeMinor).toBe(0n);
      expect(folded.last.winMinor, player.join(' ')).toBe(100n * times);
    }
  });

  it('a fold loses the ante and shows the dealer’s cards', () => {
    const { last, view } = round(['Ks', '9h', '4d'], ['Qc', '5c', '2c'], '100', '0', 'fold');
    expect(last.winMinor).toBe(0n);
    expect(view.dealer).toEqual(hand('Qc', '5c', '2c'));
  });

  it('a round left after the ante is settled as a fold (pair plus paid, ante lost)', () => {
    const rng = dealing(1, ['9s', '9h', '4d', 'Qc', '5c', '2c']);
    const first = threeCardPoker.start({ ante: 100, pairPlus: 100 }, rng)!;
    const last = threeCardPoker.act!(first.state, ABANDONED_ROUND_ACTION, rng)!;
    expect(last.done).toBe(true);
    expect(last.stakeMinor).toBe(0n);
    expect(last.winMinor).toBe(200n);
  });

  it('refuses invalid stakes, unknown fields, unknown actions and a tampered state', () => {
    const rng = seededRng(3);
    const invalid: unknown[] = [
      null,
      {},
      { ante: 0 },
      { ante: -100 },
      { ante: '12.5' },
      { ante: 12.5 },
      { ante: '1e5' },
      { ante: Number.MAX_SAFE_INTEGER + 1 },
      { ante: (THREE_CARD_POKER_LIMITS.maxMinor + 1n).toString() },
      { ante: Number(THREE_CARD_POKER_LIMITS.minMinor) - 1 },
      { ante: 100, pairPlus: -1 },
      { ante: 100, pairPlus: '5' },
      { ante: 100, sixCard: 100 },
    ];
    for (const input of invalid) expect(threeCardPoker.start(input, rng), JSON.stringify(input)).toBeUndefined();
    const first = threeCardPoker.start({ ante: '100' }, rng)!;
    expect(threeCardPoker.act!(first.state, { action: 'raise' }, rng)).toBeUndefined();
    expect(threeCardPoker.act!(first.state, 'play', rng)).toBeUndefined();
    const state = first.state as Record<string, unknown>;
    expect(threeCardPoker.act!({ ...state, ante: '-5' }, { action: 'play' }, rng)).toBeUndefined();
    expect(threeCardPoker.act!({ ...state, dealer: [] }, { action: 'play' }, rng)).toBeUndefined();
    expect(threeCardPoker.act!(undefined, { action: 'play' }, rng)).toBeUndefined();
  });

  it('uses the catalogue’s limits', () => {
    const entry = JSON.parse(readFileSync('content/shared/_all/games/three-card-poker.json', 'utf8'));
    expect(THREE_CARD_POKER_LIMITS.minMinor).toBe(BigInt(Math.round(Number(entry.game_params.min_bet) * 100)));
    expect(THREE_CARD_POKER_LIMITS.maxMinor).toBe(BigInt(Math.round(Number(entry.game_params.max_bet) * 100)));
  });
});

describe('Three Card Poker RTP', () => {
  it('pair plus returns the published 92.72 % (house edge 7.28 %), counted over every three-card hand', () => {
    let paid = 0;
    let hands = 0;
    for (let a = 0; a < 52; a++)
      for (let b = a + 1; b < 52; b++)
        for (let c = b + 1; c < 52; c++) {
          const value = evaluateHand([cardOf(a), cardOf(b), cardOf(c)]);
          const odds = PAIR_PLUS[value.hand];
          paid += odds === undefined ? 0 : Number(odds) + 1;
          hands++;
        }
    expect(hands).toBe(22_100);
    expect(paid / hands).toBeCloseTo(0.9272, 4);
  });

  it('ante and play with the optimal strategy (Q-6-4) return the published 96.63 % of the ante and the catalogue’s figure', () => {
    // 10⁶ rounds; σ of the return per ante is about 1.9, so 4.5 standard errors are 0.86 %.
    const rounds = 1_000_000;
    const rng = seededRng(15);
    const stats = new ReturnStats();
    for (let i = 0; i < rounds; i++) {
      const first = threeCardPoker.start({ ante: 1000 }, rng)!;
      const player = (first.view as { player: Card[] }).player;
      const last = threeCardPoker.act!(first.state, { action: optimalPlays(player) ? 'play' : 'fold' }, rng)!;
      stats.add(first.stakeMinor + last.stakeMinor, last.winMinor, first.stakeMinor);
    }
    const entry = JSON.parse(readFileSync('content/shared/_all/games/three-card-poker.json', 'utf8'));
    expect(Math.abs(stats.rtp - 0.9663)).toBeLessThan(4.5 * stats.standardError);
    expect(Math.abs(stats.rtp - entry.game_params.rtp / 100)).toBeLessThan(4.5 * stats.standardError);
  });
});
