import { describe, expect, it } from 'vitest';
import { GameRuleError, InvalidBetError } from './errors';
import { createFairRng, shuffle } from './fair';
import {
  act,
  availableActions,
  cardAtShoeIndex,
  createShoe,
  deal,
  handTotal,
  publicBlackjackView,
  resumeShoe,
  type BlackjackState,
  type Card,
  type Shoe,
} from './blackjack';
import { basicStrategy } from './blackjack-strategy';
import { SIMULATION_TIMEOUT_MS, simulateRounds } from './statistics';

const SEEDS = {
  serverSeed: 'a3c1f0e6d2b4978563412f0e9d8c7b6a5f4e3d2c1b0a99887766554433221100',
  clientSeed: 'player-seed',
  nonce: 1,
};
const BET = 1_000n;

/** A shoe that deals the given cards in order: player, dealer up, player, dealer hole, then the rest. */
function stacked(...cards: Card[]): Shoe {
  let drawn = 0;
  return {
    draw() {
      const card = cards[drawn];
      if (!card) throw new Error('the stacked shoe ran out');
      drawn++;
      return card;
    },
    get drawn() {
      return drawn;
    },
  };
}

function play(shoe: Shoe, actions: Parameters<typeof act>[1][], stakeMinor = BET): BlackjackState {
  return actions.reduce((state, action) => act(state, action, shoe), deal({ stakeMinor }, shoe));
}

describe('blackjack totals', () => {
  it('counts an ace as 11 while that does not bust, and ten-value cards as 10', () => {
    expect(handTotal(['AS', '6H'])).toEqual({ total: 17, isSoft: true });
    expect(handTotal(['AS', '6H', 'TD'])).toEqual({ total: 17, isSoft: false });
    expect(handTotal(['AS', 'AH', '9C'])).toEqual({ total: 21, isSoft: true });
    expect(handTotal(['KS', 'QH', '2C'])).toEqual({ total: 22, isSoft: false });
  });
});

describe('blackjack rules (6 decks, S17, 3:2, double any two, split once, insurance 2:1)', () => {
  it('pays a blackjack 3:2, rounded down to the minor unit, without any action', () => {
    const state = play(stacked('AS', '9H', 'KD', '7C'), []);
    expect(state.phase).toBe('finished');
    expect(state.result).toMatchObject({ hands: [{ outcome: 'blackjack', payoutMinor: 2_500n }], payoutMinor: 2_500n });
    expect(play(stacked('AS', '9H', 'KD', '7C'), [], 101n).result!.payoutMinor).toBe(252n);
  });

  it('the dealer stands on soft 17', () => {
    const state = play(stacked('TS', 'AH', '8D', '6C'), ['no-insurance', 'stand']);
    expect(state.dealer).toEqual(['AH', '6C']);
    expect(state.result).toMatchObject({ dealerTotal: 17, hands: [{ outcome: 'win', payoutMinor: 2_000n }] });
  });

  it('the dealer draws to 16 and stops at 17 or more', () => {
    const state = play(stacked('TS', 'TH', '7D', '6C', '5S', '9H'), ['stand']);
    expect(state.dealer).toEqual(['TH', '6C', '5S']);
    expect(state.result).toMatchObject({ dealerTotal: 21, hands: [{ outcome: 'lose', payoutMinor: 0n }] });
  });

  it('a bust loses whatever the dealer holds, and with every hand bust the dealer draws nothing', () => {
    const state = play(stacked('TS', '6H', '5D', 'TC', '9S', 'KH'), ['hit']);
    expect(state.result).toMatchObject({ hands: [{ outcome: 'bust', payoutMinor: 0n }] });
    expect(state.dealer).toEqual(['6H', 'TC']);
  });

  it('a push returns the stake', () => {
    expect(play(stacked('TS', '9H', '9D', 'TC'), ['stand']).result).toMatchObject({
      hands: [{ outcome: 'push', payoutMinor: BET }],
    });
  });

  it('doubling doubles the bet, deals exactly one card and stands', () => {
    const state = play(stacked('6S', '6H', '5D', 'TC', '9S', '7H'), ['double']);
    expect(state.hands[0]!.cards).toEqual(['6S', '5D', '9S']);
    expect(state.totalStakeMinor).toBe(2n * BET);
    expect(state.result).toMatchObject({ dealerTotal: 23, hands: [{ outcome: 'win', payoutMinor: 4n * BET }] });
  });

  it('doubling is allowed on the first two cards only', () => {
    const state = play(stacked('2S', 'TH', '3D', '7C', '4S'), ['hit']);
    expect(availableActions(state)).toEqual(['hit', 'stand']);
    expect(() => act(state, 'double', stacked())).toThrow(new GameRuleError('action not allowed'));
  });

  it('splitting a pair makes two hands with a bet each, each dealt its second card in turn, and allows a double after it', () => {
    const shoe = stacked('8S', '6H', '8D', 'TC', '3S', 'KH', '9D', '5C');
    let state = play(shoe, ['split']);
    expect(state.hands.map((hand) => hand.cards)).toEqual([
      ['8S', '3S'],
      ['8D', 'KH'],
    ]);
    expect(state.totalStakeMinor).toBe(2n * BET);
    expect(availableActions(state)).toEqual(['hit', 'stand', 'double']);
    state = act(state, 'double', shoe);
    expect(state.activeHand).toBe(1);
    state = act(state, 'stand', shoe);
    // Dealer 6 + T = 16 draws 5: 21 beats 8 + 3 + 9 = 20 and 8 + K = 18.
    expect(state.result).toMatchObject({ dealerTotal: 21, hands: [{ outcome: 'lose' }, { outcome: 'lose' }], payoutMinor: 0n });
    expect(state.totalStakeMinor).toBe(3n * BET);
  });

  it('splits once only, ten-value cards of different ranks count as a pair', () => {
    const shoe = stacked('KS', '6H', 'TD', 'TC', 'KH', '7D');
    const state = play(shoe, ['split']);
    expect(state.hands[0]!.cards).toEqual(['KS', 'KH']);
    expect(availableActions(state)).not.toContain('split');
    expect(() => act(state, 'split', shoe)).toThrow(GameRuleError);
  });

  it('split aces take one card each and stand, and 21 after a split pays 1:1, not 3:2', () => {
    const state = play(stacked('AS', '9H', 'AD', '8C', 'KS', '5H'), ['split']);
    expect(state.phase).toBe('finished');
    expect(state.hands.map((hand) => hand.cards)).toEqual([
      ['AS', 'KS'],
      ['AD', '5H'],
    ]);
    expect(state.result).toMatchObject({
      dealerTotal: 17,
      hands: [
        { outcome: 'win', payoutMinor: 2n * BET },
        { outcome: 'lose', payoutMinor: 0n },
      ],
    });
  });

  it('offers insurance when the dealer shows an ace; insurance pays 2:1 when the dealer has blackjack', () => {
    const shoe = stacked('TS', 'AH', '9D', 'KC');
    const offered = deal({ stakeMinor: BET }, shoe);
    expect(offered.phase).toBe('insurance');
    expect(availableActions(offered)).toEqual(['insurance', 'no-insurance']);
    const state = act(offered, 'insurance', shoe);
    expect(state.totalStakeMinor).toBe(BET + BET / 2n);
    expect(state.result).toMatchObject({
      isDealerBlackjack: true,
      insurancePayoutMinor: 1_500n,
      hands: [{ outcome: 'lose' }],
      payoutMinor: 1_500n,
    });
  });

  it('loses the insurance when the dealer has no blackjack, and play goes on', () => {
    const shoe = stacked('TS', 'AH', '9D', '5C', '2D');
    const state = act(deal({ stakeMinor: BET }, shoe), 'insurance', shoe);
    expect(state.phase).toBe('player');
    // Dealer A + 5 draws 2: soft 18 stands; the player's 19 wins, the insurance is gone.
    expect(act(state, 'stand', shoe).result).toMatchObject({
      dealerTotal: 18,
      insurancePayoutMinor: 0n,
      hands: [{ outcome: 'win' }],
      payoutMinor: 2n * BET,
    });
  });

  it('ends the round at once when the dealer peeks a blackjack under a ten: a player blackjack pushes, anything else loses the opening bet', () => {
    expect(play(stacked('9S', 'KH', '9D', 'AC'), []).result).toMatchObject({
      isDealerBlackjack: true,
      hands: [{ outcome: 'lose', payoutMinor: 0n }],
    });
    expect(play(stacked('AS', 'AH', 'KD', 'QC'), ['no-insurance']).result).toMatchObject({
      isDealerBlackjack: true,
      hands: [{ outcome: 'push', payoutMinor: BET }],
    });
  });

  it('refuses actions out of turn with GameRuleError', () => {
    const insurance = deal({ stakeMinor: BET }, stacked('TS', 'AH', '9D', '5C'));
    for (const action of ['hit', 'stand', 'double', 'split'] as const)
      expect(() => act(insurance, action, stacked())).toThrow(new GameRuleError('action not allowed'));
    const playing = play(stacked('TS', '7H', '9D', '5C'), []);
    expect(() => act(playing, 'insurance', stacked())).toThrow(GameRuleError);
    expect(() => act(playing, 'split', stacked())).toThrow(GameRuleError);
    const finished = play(stacked('AS', '9H', 'KD', '7C'), []);
    expect(availableActions(finished)).toEqual([]);
    expect(() => act(finished, 'stand', stacked())).toThrow(GameRuleError);
  });

  it('offers no insurance on a bet of one minor unit: half of it rounds down to nothing', () => {
    const insurance = deal({ stakeMinor: 1n }, stacked('TS', 'AH', '9D', '5C'));
    expect(availableActions(insurance)).toEqual(['no-insurance']);
    expect(() => act(insurance, 'insurance', stacked())).toThrow(GameRuleError);
  });

  it('answers each action with a new state and leaves the one it was given as it was (the server keeps it)', () => {
    const shoe = stacked('TS', 'AH', '9D', '5C', '6S', 'KH');
    const offered = deal({ stakeMinor: BET }, shoe);
    const offeredBefore = structuredClone(offered);
    const playing = act(offered, 'no-insurance', shoe);
    expect(offered).toEqual(offeredBefore);
    const playingBefore = structuredClone(playing);
    const finished = act(playing, 'hit', shoe);
    expect(playing).toEqual(playingBefore);
    expect(finished.phase).toBe('finished');
    expect(finished.hands[0]!.cards).toEqual(['TS', '9D', '6S']);
  });

  it('refuses a stake that is not a positive integer of minor units', () => {
    expect(() => deal({ stakeMinor: 0n }, stacked('TS', '7H', '9D', '5C'))).toThrow(InvalidBetError);
  });

  it('hides the hole card until the round ends', () => {
    const playing = play(stacked('TS', '7H', '9D', '5C'), []);
    expect(publicBlackjackView(playing).dealer).toEqual(['7H', null]);
    expect(publicBlackjackView(playing).actions).toEqual(['hit', 'stand', 'double']);
  });
});

describe('the blackjack shoe on the fair stream', () => {
  it('deals the forward Fisher–Yates of six ordered decks: card k dealt is card k of the full shuffle', () => {
    const full = shuffle(
      createFairRng(SEEDS),
      Array.from({ length: 312 }, (_, i) => i),
    ).map(cardAtShoeIndex);
    const shoe = createShoe(createFairRng(SEEDS));
    expect(Array.from({ length: 312 }, () => shoe.draw())).toEqual(full);
    const counts = new Map<Card, number>();
    for (const card of full) counts.set(card, (counts.get(card) ?? 0) + 1);
    expect(counts.size).toBe(52);
    expect([...counts.values()].every((count) => count === 6)).toBe(true);
  });

  it('plays the same round for the same seeds and resumes a saved round where it stopped', () => {
    const playOut = (shoe: Shoe) => {
      let state = deal({ stakeMinor: BET }, shoe);
      while (state.phase !== 'finished') state = act(state, basicStrategy(state), shoe);
      return state;
    };
    expect(playOut(createShoe(createFairRng(SEEDS)))).toEqual(playOut(createShoe(createFairRng(SEEDS))));
    for (let nonce = 0; nonce < 50; nonce++) {
      const seeds = { ...SEEDS, nonce };
      const whole = playOut(createShoe(createFairRng(seeds)));
      // Saved after the deal, reloaded as a server would: a new stream, the shoe moved on.
      const afterDeal = structuredClone(deal({ stakeMinor: BET }, createShoe(createFairRng(seeds))));
      let state = afterDeal;
      const shoe = resumeShoe(createFairRng(seeds), afterDeal.cardsDrawn);
      while (state.phase !== 'finished') state = act(state, basicStrategy(state), shoe);
      expect(state).toEqual(whole);
    }
  });

  it('refuses to act with a shoe that is not where the round left it', () => {
    const shoe = stacked('TS', '7H', '9D', '5C', '2S', '3S');
    const state = deal({ stakeMinor: BET }, shoe);
    shoe.draw();
    expect(() => act(state, 'hit', shoe)).toThrow(/the shoe has dealt 5 cards, the round 4/);
  });
});

describe('blackjack RTP by simulation (basic strategy, no insurance)', () => {
  it(
    'returns 99.59 % of the opening bet: 200 000 hands on the fair stream within 4.5 standard errors',
    () => {
      // The net result of a hand has σ = 1.146 opening bets (10⁷ simulated hands), so the
      // mean of 200 000 hands has a standard error of 0.0026 and the tolerance is ±1.15 %: a 6:5
      // blackjack (−1.4 %) would fall outside.
      const rounds = 200_000;
      const stats = simulateRounds(rounds, (rng) => {
        const shoe = createShoe(rng);
        let state = deal({ stakeMinor: BET }, shoe);
        while (state.phase !== 'finished') state = act(state, basicStrategy(state), shoe);
        return { stakeMinor: state.totalStakeMinor, payoutMinor: state.result!.payoutMinor, baseStakeMinor: BET };
      });
      expect(Math.abs(stats.rtp - 0.9959)).toBeLessThan((4.5 * 1.146) / Math.sqrt(rounds));
    },
    SIMULATION_TIMEOUT_MS,
  );
});
