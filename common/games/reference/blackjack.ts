/**
 * The reference implementation of blackjack: blackjack.ts exactly as first written, before it
 * was tuned for speed (issue 12). Only tests import it: the tuned engine must give the same
 * rounds on the same stream, because a published round is verified by replaying it (architecture §6).
 */
import { GameRuleError } from '../errors';
import { LazyShuffle, type Rng } from '../fair';
import { requireStake } from '../payout';

export const BLACKJACK_DECKS = 6;

/** Rank then suit: 'AS', 'TH' (ten of hearts), 'QD', '7C'. */
export type Card = string;

const RANKS = 'A23456789TJQK';
const SUITS = 'SHDC';
const DECK: readonly Card[] = Array.from({ length: 52 }, (_, i) => `${RANKS[i % 13]}${SUITS[Math.floor(i / 13)]}`);
const VALUE_OF_RANK = new Map([...RANKS].map((rank, index) => [rank, Math.min(index + 1, 10)]));

export function cardAtShoeIndex(index: number): Card {
  return DECK[index % 52]!;
}

/** Ace 1 (totals count it as 11 when that does not bust), ten and faces 10. */
export function cardValue(card: Card): number {
  const value = VALUE_OF_RANK.get(card[0]!);
  if (value === undefined) throw new RangeError(`no card ${card}`);
  return value;
}

export function handTotal(cards: readonly Card[]): { total: number; isSoft: boolean } {
  let total = 0;
  let hasAce = false;
  for (const card of cards) {
    const value = cardValue(card);
    total += value;
    if (value === 1) hasAce = true;
  }
  const isSoft = hasAce && total + 10 <= 21;
  return { total: isSoft ? total + 10 : total, isSoft };
}

export function isNaturalBlackjack(cards: readonly Card[]): boolean {
  return cards.length === 2 && handTotal(cards).total === 21;
}

/** Where a round's cards come from: the lazily shuffled shoe, or a script in tests. */
export interface Shoe {
  draw(): Card;
  /** Cards dealt so far: a saved round resumes its shoe after this many. */
  readonly drawn: number;
}

export function createShoe(rng: Rng, decks = BLACKJACK_DECKS): Shoe {
  const order = new LazyShuffle(rng, 52 * decks);
  return {
    draw: () => cardAtShoeIndex(order.next()),
    get drawn() {
      return order.count;
    },
  };
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
  return cardValue(d1) === 1 ? state : peek(state);
}

/** The actions the rules allow now; anything else is refused with GameRuleError. */
export function availableActions(state: BlackjackState): BlackjackAction[] {
  if (state.phase === 'finished') return [];
  if (state.phase === 'insurance') return state.betMinor / 2n > 0n ? ['insurance', 'no-insurance'] : ['no-insurance'];
  const hand = state.hands[state.activeHand]!;
  const actions: BlackjackAction[] = ['hit', 'stand'];
  if (hand.cards.length === 2) {
    actions.push('double');
    if (state.hands.length === 1 && cardValue(hand.cards[0]!) === cardValue(hand.cards[1]!)) actions.push('split');
  }
  return actions;
}

export function act(state: BlackjackState, action: BlackjackAction, shoe: Shoe): BlackjackState {
  if (!availableActions(state).includes(action)) throw new GameRuleError('action not allowed');
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
    Object.assign(state, peek(state));
  },
  'no-insurance': (state) => {
    state.insuranceMinor = 0n;
    Object.assign(state, peek(state));
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

function copy(state: BlackjackState): BlackjackState {
  return { ...state, hands: state.hands.map((hand) => ({ ...hand, cards: [...hand.cards] })), dealer: [...state.dealer] };
}

/** After the insurance answer or a deal without an ace up: the dealer checks for blackjack. */
function peek(state: BlackjackState): BlackjackState {
  const next = copy(state);
  if (isNaturalBlackjack(next.dealer) || isNaturalBlackjack(next.hands[0]!.cards)) return finish(next);
  next.phase = 'player';
  return next;
}

/** Moves to the next hand that still plays; when none is left the dealer plays and all settle. */
function advance(state: BlackjackState, shoe: Shoe): void {
  for (; state.activeHand < state.hands.length; state.activeHand++) {
    const hand = active(state);
    if (handTotal(hand.cards).total >= 21) hand.isDone = true;
    if (!hand.isDone) return;
  }
  state.activeHand = state.hands.length - 1;
  if (state.hands.some((hand) => handTotal(hand.cards).total <= 21)) {
    while (handTotal(state.dealer).total < 17) state.dealer.push(shoe.draw());
  }
  Object.assign(state, finish(state));
}

function finish(state: BlackjackState): BlackjackState {
  const dealerTotal = handTotal(state.dealer).total;
  const isDealerBlackjack = isNaturalBlackjack(state.dealer);
  const hands = state.hands.map((hand) => settleHand(hand, dealerTotal, isDealerBlackjack));
  const insurancePayoutMinor = isDealerBlackjack && state.insuranceMinor ? 3n * state.insuranceMinor : 0n;
  const payoutMinor = hands.reduce((sum, hand) => sum + hand.payoutMinor, insurancePayoutMinor);
  return {
    ...state,
    phase: 'finished',
    hands: state.hands.map((hand) => ({ ...hand, isDone: true })),
    result: { hands, dealerTotal, isDealerBlackjack, insurancePayoutMinor, payoutMinor },
  };
}

function settleHand(
  hand: BlackjackHand,
  dealerTotal: number,
  isDealerBlackjack: boolean,
): { outcome: HandOutcome; payoutMinor: bigint } {
  const total = handTotal(hand.cards).total;
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
