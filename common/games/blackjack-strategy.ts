/**
 * Basic strategy for the house rules of blackjack.ts (6 decks, dealer stands on soft 17, double
 * on any two cards and after a split, split once, no surrender, dealer peeks): the play that
 * maximises the expected return of each hand from the player's cards and the dealer's up card
 * alone. The RTP simulation and the bench play it; a hint in the game could show it.
 * Insurance is never taken: it returns 2:1 on a ten under the ace, which comes less than one
 * time in three.
 */
import { cardValue, handTotal, isActionAllowed, type BlackjackAction, type BlackjackState } from './blackjack';

type Play = 'H' | 'S' | 'D' | 'Ds' | 'P';

const between = (up: number, from: number, to: number) => up >= from && up <= to;

/** Pairs worth splitting against the up card (2 … 11, ace 11); others play as totals. */
function shouldSplit(pairValue: number, up: number): boolean {
  switch (pairValue) {
    case 1:
    case 8:
      return true;
    case 9:
      return between(up, 2, 6) || up === 8 || up === 9;
    case 7:
    case 3:
    case 2:
      return between(up, 2, 7);
    case 6:
      return between(up, 2, 6);
    case 4:
      return up === 5 || up === 6;
    default:
      return false;
  }
}

/** Soft totals (an ace counted as 11): 'Ds' doubles when it may, else stands. */
function softPlay(total: number, up: number): Play {
  if (total >= 19) return 'S';
  if (total === 18) return between(up, 3, 6) ? 'Ds' : up <= 8 ? 'S' : 'H';
  if (total === 17) return between(up, 3, 6) ? 'D' : 'H';
  if (total >= 15) return between(up, 4, 6) ? 'D' : 'H';
  if (total >= 13) return between(up, 5, 6) ? 'D' : 'H';
  return 'H';
}

function hardPlay(total: number, up: number): Play {
  if (total >= 17) return 'S';
  if (total >= 13) return up <= 6 ? 'S' : 'H';
  if (total === 12) return between(up, 4, 6) ? 'S' : 'H';
  if (total === 11) return up <= 10 ? 'D' : 'H';
  if (total === 10) return up <= 9 ? 'D' : 'H';
  if (total === 9) return between(up, 3, 6) ? 'D' : 'H';
  return 'H';
}

export function basicStrategy(state: BlackjackState): BlackjackAction {
  if (state.phase === 'finished') throw new RangeError('the round is over');
  if (state.phase === 'insurance') return 'no-insurance';
  const cards = state.hands[state.activeHand]!.cards;
  const upValue = cardValue(state.dealer[0]!);
  const up = upValue === 1 ? 11 : upValue;
  if (isActionAllowed(state, 'split') && shouldSplit(cardValue(cards[0]!), up)) return 'split';
  const { total, isSoft } = handTotal(cards);
  const play = isSoft ? softPlay(total, up) : hardPlay(total, up);
  const canDouble = isActionAllowed(state, 'double');
  if (play === 'D') return canDouble ? 'double' : 'hit';
  if (play === 'Ds') return canDouble ? 'double' : 'stand';
  return play === 'H' ? 'hit' : 'stand';
}
