/**
 * Blackjack as a state machine over a shoe dealt from the fair stream.
 *
 * Draws: each round uses a fresh shoe of 6 decks (312 cards) in the forward Fisher–Yates order
 * of the round's stream, dealt lazily (LazyShuffle): the k-th card dealt is card k of the full
 * shuffle, whatever the player does. Shoe position i is card i mod 52 of a deck ordered
 * A♠ 2♠ … K♠, A♥ … K♥, A♦ … K♦, A♣ … K♣ (rank i mod 13, suit ⌊i / 13⌋ mod 4).
 * Deal order: player, dealer (up card), player, dealer (hole card); later cards in the order the
 * actions ask for them.
 *
 * Rules:
 *  - Blackjack (an ace and a ten-value card as the first two cards of an unsplit hand) pays 3:2.
 *  - Dealer stands on all 17s, soft 17 included, and draws to 16.
 *  - When the up card is an ace the player first takes or declines insurance (half the bet,
 *    rounded down; pays 2:1 when the dealer has blackjack). The dealer then checks for
 *    blackjack under an ace or a ten-value card: a dealer blackjack ends the round at once (the
 *    player's blackjack pushes, anything else loses only the opening bet).
 *  - Double on any first two cards (after a split too, but not on split aces): the bet doubles
 *    and exactly one card follows.
 *  - Split once, any two cards of equal value (K and 10 too), for a second bet equal to the
 *    first; each hand gets its second card at once (first hand, then second). Split aces take
 *    one card each and stand. 21 after a split is 21, not blackjack.
 *  - A hand reaching 21 stands by itself; a busted hand loses even if the dealer busts.
 * Payouts are in minor units: a win returns 2 × its stake, a push 1 ×, blackjack ⌊5 × stake / 2⌋
 * and insurance 3 × its stake (the stake back and 2:1).
 * RTP with basic strategy (blackjack-strategy.ts, no insurance): 99.59 % of the opening bet by
 * simulation, 10 000 000 hands on the fair stream: 99.587 % ± 0.071 % (95 % interval), σ = 1.146
 * bets a hand (a house edge of about 0.41 %, in line with the 0.4–0.5 % published for these
 * rules); a player who deviates from basic strategy gets less.
 */
import { GameRuleError } from './errors';
import { LazyShuffle, type Rng } from './fair';
import { requireStake } from './payout';

export const BLACKJACK_DECKS = 6;

/** Rank then suit: 'AS', 'TH' (ten of hearts), 'QD', '7C'. */
export type Card = string;

const RANKS = 'A23456789TJQK';
const SUITS = 'SHDC';
const DECK: readonly Card[] = Array.from({ length: 52 }, (_, i) => `${RANKS[i % 13]}${SUITS[Math.floor(i / 13)]}`);
/** Card value by the character code of its rank (0: no such rank): a table, as simulations ask often. */
const VALUE_OF_RANK_CODE = new Uint8Array(128);
[...RANKS].forEach((rank, index) => (VALUE_OF_RANK_CODE[rank.charCodeAt(0)] = Math.min(index + 1, 10)));

export function cardAtShoeIndex(index: number): Card {
  return DECK[index % 52]!;
}

/** Ace 1 (totals count it as 11 when that does not bust), ten and faces 10. */
export function cardValue(card: Card): number {
  const value = VALUE_OF_RANK_CODE[card.charCodeAt(0)];
  if (!value) throw new RangeError(`no card ${card}`);
  return value;
}

export function handTotal(cards: readonly Card[]): { total: number; isSoft: boolean } {
  const score = scoreOf(cards);
  return { total: score >> 1, isSoft: (score & 1) === 1 };
}

/**
 * A hand's total times two, plus one when an ace counts 11: the rules ask for totals several times
 * an action, and a number, unlike handTotal's object, costs the collector nothing (issue 12: a third
 * of a simulated round's CPU was garbage collection).
 */
function scoreOf(cards: readonly Card[]): number {
  let total = 0;
  let hasAce = false;
  for (let i = 0; i < cards.length; i++) {
    const value = cardValue(cards[i]!);
    total += value;
    if (value === 1) hasAce = true;
  }
  return hasAce && total + 10 <= 21 ? (total + 10) * 2 + 1 : total * 2;
}

const totalOf = (cards: readonly Card[]): number => scoreOf(cards) >> 1;

export function isNaturalBlackjack(cards: readonly Card[]): boolean {
  return cards.length === 2 && totalOf(cards) === 21;
}

/** Where a round's cards come from: the lazily shuffled shoe, or a script in tests. */
export interface Shoe {
  draw(): Card;
  /** Cards dealt so far: a saved round resumes its shoe after this many. */
  readonly drawn: number;
}

/**
 * A class, not an object literal with a getter: V8 defines a literal's getter by a call into its
 * runtime on every shoe, and simulations make one shoe a round (issue 12).
 */
class FairShoe implements Shoe {
  private readonly order: LazyShuffle;

  constructor(rng: Rng, decks: number) {
    this.order = new LazyShuffle(rng, 52 * decks);
  }

  draw(): Card {
    return cardAtShoeIndex(this.order.next());
  }

  get drawn(): number {
    return this.order.count;
  }
}

export function createShoe(rng: Rng, decks = BLACKJACK_DECKS): Shoe {
  return new FairShoe(rng, decks);
}

/** The shoe of a saved round, positioned after the cards it has dealt (rebuilt from its seeds). */
export function resumeShoe(rng: Rng, cardsDrawn: number, decks = BLACKJACK_DECKS): Shoe {
  const shoe = createShoe(rng, decks);
  for (let i = 0; i < cardsDrawn; i++) shoe.draw();
  return shoe;
}

export type BlackjackAction = 'hit' | 'stand' | 'double' | 'split' | 'insurance' | 'no-insurance';
export type BlackjackPhase = 'insurance' | 'player' | 'finished';
export type HandOutcome = 'blackjack' | 'win' | 'push' | 'lose' | 'bust';

export interface BlackjackHand {
  cards: Card[];
  stakeMinor: bigint;
  isDoubled: boolean;
  isFromSplit: boolean;
  isDone: boolean;
}

export interface BlackjackResult {
  hands: Array<{ outcome: HandOutcome; payoutMinor: bigint }>;
  dealerTotal: number;
  isDealerBlackjack: boolean;
  insurancePayoutMinor: bigint;
  payoutMinor: bigint;
}

export interface BlackjackState {
  phase: BlackjackPhase;
  /** The opening bet; doubles, the split and insurance add to totalStakeMinor. */
  betMinor: bigint;
  hands: BlackjackHand[];
  activeHand: number;
  /** Up card first; the hole card is secret until the round ends (publicBlackjackView). */
  dealer: Card[];
  /** Null until the player answers the insurance offer (and when none was made). */
  insuranceMinor: bigint | null;
  totalStakeMinor: bigint;
  cardsDrawn: number;
  result: BlackjackResult | null;
}

export function deal(params: { stakeMinor: bigint }, shoe: Shoe): BlackjackState {
  const betMinor = requireStake(params.stakeMinor);
  const [p1, d1, p2, d2] = [shoe.draw(), shoe.draw(), shoe.draw(), shoe.draw()];
  const state: BlackjackState = {
    phase: 'insurance',
    betMinor,
    hands: [{ cards: [p1, p2], stakeMinor: betMinor, isDoubled: false, isFromSplit: false, isDone: false }],
    activeHand: 0,
    dealer: [d1, d2],
    insuranceMinor: null,
    totalStakeMinor: betMinor,
    cardsDrawn: shoe.drawn,
    result: null,
  };
  if (cardValue(d1) !== 1) peek(state);
  return state;
}

const ACTIONS: readonly BlackjackAction[] = ['insurance', 'no-insurance', 'hit', 'stand', 'double', 'split'];

/** The actions the rules allow now; anything else is refused with GameRuleError. */
export function availableActions(state: BlackjackState): BlackjackAction[] {
  return ACTIONS.filter((action) => isActionAllowed(state, action));
}

/** Whether the rules allow `action` now: availableActions(state).includes(action), without the list. */
export function isActionAllowed(state: BlackjackState, action: BlackjackAction): boolean {
  if (state.phase === 'finished') return false;
  // Insurance is half the bet rounded down: a bet of one minor unit cannot be insured.
  if (state.phase === 'insurance') return action === 'no-insurance' || (action === 'insurance' && state.betMinor >= 2n);
  const cards = active(state).cards;
  switch (action) {
    case 'hit':
    case 'stand':
      return true;
    case 'double':
      return cards.length === 2;
    case 'split':
      return cards.length === 2 && state.hands.length === 1 && cardValue(cards[0]!) === cardValue(cards[1]!);
    default:
      return false;
  }
}

export function act(state: BlackjackState, action: BlackjackAction, shoe: Shoe): BlackjackState {
  if (!isActionAllowed(state, action)) throw new GameRuleError('action not allowed');
  // A shoe elsewhere than this round left it would deal someone else's cards: a server fault.
  if (shoe.drawn !== state.cardsDrawn) throw new Error(`the shoe has dealt ${shoe.drawn} cards, the round ${state.cardsDrawn}`);
  const next = copy(state);
  APPLY[action](next, shoe);
  next.cardsDrawn = shoe.drawn;
  return next;
}

const APPLY: Record<BlackjackAction, (state: BlackjackState, shoe: Shoe) => void> = {
  insurance: (state) => {
    state.insuranceMinor = state.betMinor / 2n;
    state.totalStakeMinor += state.insuranceMinor;
    peek(state);
  },
  'no-insurance': (state) => {
    state.insuranceMinor = 0n;
    peek(state);
  },
  hit: (state, shoe) => {
    active(state).cards.push(shoe.draw());
    advance(state, shoe);
  },
  stand: (state, shoe) => {
    active(state).isDone = true;
    advance(state, shoe);
  },
  double: (state, shoe) => {
    const hand = active(state);
    state.totalStakeMinor += hand.stakeMinor;
    hand.stakeMinor *= 2n;
    hand.isDoubled = true;
    hand.cards.push(shoe.draw());
    hand.isDone = true;
    advance(state, shoe);
  },
  split: (state, shoe) => {
    const [first, second] = active(state).cards as [Card, Card];
    const isAces = cardValue(first) === 1;
    const splitHand = (card: Card): BlackjackHand => ({
      cards: [card, shoe.draw()],
      stakeMinor: state.betMinor,
      isDoubled: false,
      isFromSplit: true,
      isDone: isAces,
    });
    state.hands = [splitHand(first), splitHand(second)];
    state.totalStakeMinor += state.betMinor;
    advance(state, shoe);
  },
};

function active(state: BlackjackState): BlackjackHand {
  return state.hands[state.activeHand]!;
}

/**
 * The state an action changes: act() answers a new state and leaves the one it was given as it
 * was (the server keeps it); the helpers below change this copy in place.
 */
function copy(state: BlackjackState): BlackjackState {
  return {
    phase: state.phase,
    betMinor: state.betMinor,
    hands: state.hands.map((hand) => ({ ...hand, cards: hand.cards.slice() })),
    activeHand: state.activeHand,
    dealer: state.dealer.slice(),
    insuranceMinor: state.insuranceMinor,
    totalStakeMinor: state.totalStakeMinor,
    cardsDrawn: state.cardsDrawn,
    result: state.result,
  };
}

/** After the insurance answer or a deal without an ace up: the dealer checks for blackjack. */
function peek(state: BlackjackState): void {
  if (isNaturalBlackjack(state.dealer) || isNaturalBlackjack(state.hands[0]!.cards)) finish(state);
  else state.phase = 'player';
}

/** Moves to the next hand that still plays; when none is left the dealer plays and all settle. */
function advance(state: BlackjackState, shoe: Shoe): void {
  for (; state.activeHand < state.hands.length; state.activeHand++) {
    const hand = active(state);
    if (totalOf(hand.cards) >= 21) hand.isDone = true;
    if (!hand.isDone) return;
  }
  state.activeHand = state.hands.length - 1;
  if (state.hands.some((hand) => totalOf(hand.cards) <= 21)) {
    while (totalOf(state.dealer) < 17) state.dealer.push(shoe.draw());
  }
  finish(state);
}

function finish(state: BlackjackState): void {
  const dealerTotal = totalOf(state.dealer);
  const isDealerBlackjack = isNaturalBlackjack(state.dealer);
  const hands = state.hands.map((hand) => settleHand(hand, dealerTotal, isDealerBlackjack));
  const insurancePayoutMinor = isDealerBlackjack && state.insuranceMinor ? 3n * state.insuranceMinor : 0n;
  let payoutMinor = insurancePayoutMinor;
  for (const hand of hands) payoutMinor += hand.payoutMinor;
  for (const hand of state.hands) hand.isDone = true;
  state.phase = 'finished';
  state.result = { hands, dealerTotal, isDealerBlackjack, insurancePayoutMinor, payoutMinor };
}

function settleHand(
  hand: BlackjackHand,
  dealerTotal: number,
  isDealerBlackjack: boolean,
): { outcome: HandOutcome; payoutMinor: bigint } {
  const total = totalOf(hand.cards);
  const isBlackjack = !hand.isFromSplit && isNaturalBlackjack(hand.cards);
  if (total > 21) return { outcome: 'bust', payoutMinor: 0n };
  if (isBlackjack)
    return isDealerBlackjack
      ? { outcome: 'push', payoutMinor: hand.stakeMinor }
      : { outcome: 'blackjack', payoutMinor: (5n * hand.stakeMinor) / 2n };
  if (isDealerBlackjack || (dealerTotal <= 21 && dealerTotal > total)) return { outcome: 'lose', payoutMinor: 0n };
  if (dealerTotal === total) return { outcome: 'push', payoutMinor: hand.stakeMinor };
  return { outcome: 'win', payoutMinor: 2n * hand.stakeMinor };
}

/** What the player may see: the hole card only once the round is over. */
export function publicBlackjackView(
  state: BlackjackState,
): Omit<BlackjackState, 'dealer'> & { dealer: Array<Card | null>; actions: BlackjackAction[] } {
  const dealer = state.phase === 'finished' ? [...state.dealer] : [state.dealer[0]!, null];
  return { ...state, dealer, actions: availableActions(state) };
}
