/**
 * Drawn playing cards for the table views (60 × 84 units): suit shapes as paths, pips laid out
 * as on a real card, court cards as a drawn crowned figure, and a patterned back. The small
 * corner index is the card's printed rank, as on every real card; the art itself is shapes.
 */
import type { Card, Suit } from '../cards';

const SUIT_PATH: Record<Suit, string> = {
  hearts: 'M0 6 C-7 0 -9 -4 -7 -7 C-5 -10 -1 -9 0 -6 C1 -9 5 -10 7 -7 C9 -4 7 0 0 6 Z',
  diamonds: 'M0 -8 L6 0 L0 8 L-6 0 Z',
  spades: 'M0 -8 C-2 -4 -8 -1 -7 3 C-6 6 -2 6 -1 4 L-2 8 L2 8 L1 4 C2 6 6 6 7 3 C8 -1 2 -4 0 -8 Z',
  clubs:
    'M0 -8 C-3 -8 -4 -5 -3 -3 C-6 -4 -8 -1 -7 2 C-6 5 -2 5 -1 3 L-2 8 L2 8 L1 3 C2 5 6 5 7 2 C8 -1 6 -4 3 -3 C4 -5 3 -8 0 -8 Z',
};

const RED = '#c62828';
const BLACK = '#1a1030';

export function suitColour(suit: Suit): string {
  return suit === 'hearts' || suit === 'diamonds' ? RED : BLACK;
}

function suitShape(suit: Suit, x: number, y: number, scale: number, flip = false): string {
  const rotate = flip ? ' rotate(180)' : '';
  return `<path d="${SUIT_PATH[suit]}" transform="translate(${x} ${y}) scale(${scale})${rotate}" fill="${suitColour(suit)}"/>`;
}

/** Pip positions (x, y) of 2 … 10 inside the 60 × 84 card. */
const COLUMNS = { left: 21.5, mid: 30, right: 38.5 };
const PIPS: Record<number, [number, number][]> = {
  2: [
    [COLUMNS.mid, 20],
    [COLUMNS.mid, 64],
  ],
  3: [
    [COLUMNS.mid, 20],
    [COLUMNS.mid, 42],
    [COLUMNS.mid, 64],
  ],
  4: [
    [COLUMNS.left, 20],
    [COLUMNS.right, 20],
    [COLUMNS.left, 64],
    [COLUMNS.right, 64],
  ],
  5: [
    [COLUMNS.left, 20],
    [COLUMNS.right, 20],
    [COLUMNS.mid, 42],
    [COLUMNS.left, 64],
    [COLUMNS.right, 64],
  ],
  6: [
    [COLUMNS.left, 20],
    [COLUMNS.right, 20],
    [COLUMNS.left, 42],
    [COLUMNS.right, 42],
    [COLUMNS.left, 64],
    [COLUMNS.right, 64],
  ],
  7: [
    [COLUMNS.left, 20],
    [COLUMNS.right, 20],
    [COLUMNS.mid, 31],
    [COLUMNS.left, 42],
    [COLUMNS.right, 42],
    [COLUMNS.left, 64],
    [COLUMNS.right, 64],
  ],
  8: [
    [COLUMNS.left, 20],
    [COLUMNS.right, 20],
    [COLUMNS.mid, 31],
    [COLUMNS.left, 42],
    [COLUMNS.right, 42],
    [COLUMNS.mid, 53],
    [COLUMNS.left, 64],
    [COLUMNS.right, 64],
  ],
  9: [
    [COLUMNS.left, 18],
    [COLUMNS.right, 18],
    [COLUMNS.left, 34],
    [COLUMNS.right, 34],
    [COLUMNS.mid, 42],
    [COLUMNS.left, 50],
    [COLUMNS.right, 50],
    [COLUMNS.left, 66],
    [COLUMNS.right, 66],
  ],
  10: [
    [COLUMNS.left, 18],
    [COLUMNS.right, 18],
    [COLUMNS.mid, 26],
    [COLUMNS.left, 34],
    [COLUMNS.right, 34],
    [COLUMNS.left, 50],
    [COLUMNS.right, 50],
    [COLUMNS.mid, 58],
    [COLUMNS.left, 66],
    [COLUMNS.right, 66],
  ],
};

const INDEX = ['', 'A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];

/** A crowned bust: jack with a cap, queen with a tiara, king with a tall crown; robe in the suit's colour. */
function courtFigure(card: Card): string {
  const colour = suitColour(card.suit);
  const crown =
    card.rank === 13
      ? '<path d="M20 30 L20 20 L25 25 L30 17 L35 25 L40 20 L40 30 Z" fill="#f5c542" stroke="#7a5a00" stroke-width="1"/>'
      : card.rank === 12
        ? '<path d="M21 30 C23 24 37 24 39 30 Z" fill="#f5c542" stroke="#7a5a00" stroke-width="1"/><circle cx="30" cy="24" r="2" fill="#e53935"/>'
        : '<path d="M21 30 L22 24 C26 21 34 21 38 24 L39 30 Z" fill="#1e88e5" stroke="#0d47a1" stroke-width="1"/><circle cx="38" cy="23" r="2" fill="#f5c542"/>';
  return `<rect x="14" y="13" width="32" height="58" rx="3" fill="#fff7e0" stroke="${colour}" stroke-width="1"/>
    <path d="M16 70 C16 54 23 48 30 48 C37 48 44 54 44 70 Z" fill="${colour}"/>
    <path d="M24 50 L30 62 L36 50" fill="none" stroke="#f5c542" stroke-width="2"/>
    <circle cx="30" cy="38" r="9" fill="#ffe0c2" stroke="#8d6e63" stroke-width="1"/>
    <circle cx="27" cy="37" r="1.2" fill="${BLACK}"/><circle cx="33" cy="37" r="1.2" fill="${BLACK}"/>
    <path d="M27 42 C29 43.5 31 43.5 33 42" stroke="#8d6e63" stroke-width="1" fill="none"/>
    ${crown}${suitShape(card.suit, 20, 63, 0.5)}${suitShape(card.suit, 40, 63, 0.5)}`;
}

function face(card: Card): string {
  if (card.rank === 1) return suitShape(card.suit, 30, 42, 2.1);
  if (card.rank >= 11) return courtFigure(card);
  return PIPS[card.rank]!.map(([x, y]) => suitShape(card.suit, x, y, 0.75, y > 42)).join('');
}

/** The accessible name of a card ("Queen of hearts"), from the view's texts. */
export type CardName = (card: Card) => string;

/** One face-up card as inline SVG. */
export function cardSvg(card: Card, name: string): string {
  const colour = suitColour(card.suit);
  const index = `<text x="6" y="12" font-size="10" font-weight="700" fill="${colour}" font-family="Georgia, serif">${INDEX[card.rank]}</text>${suitShape(card.suit, 8.5, 19, 0.45)}`;
  return `<svg class="card" viewBox="0 0 60 84" role="img" aria-label="${name}" data-rank="${card.rank}" data-suit="${card.suit}">
    <rect x="1" y="1" width="58" height="82" rx="6" fill="#fffdf8" stroke="#b0a8c0" stroke-width="1.2"/>
    ${face(card)}${index}<g transform="rotate(180 30 42)">${index}</g></svg>`;
}

/** A face-down card: the studio's lattice back. */
export function cardBackSvg(label: string): string {
  return `<svg class="card card--back" viewBox="0 0 60 84" role="img" aria-label="${label}">
    <defs><pattern id="card-lattice" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="8" fill="#7b1f2a"/><path d="M0 0 L0 8" stroke="#f5c542" stroke-width="1.4"/></pattern></defs>
    <rect x="1" y="1" width="58" height="82" rx="6" fill="#fffdf8" stroke="#b0a8c0" stroke-width="1.2"/>
    <rect x="5" y="5" width="50" height="74" rx="4" fill="url(#card-lattice)"/>
    <circle cx="30" cy="42" r="10" fill="#7b1f2a" stroke="#f5c542" stroke-width="2"/>
    <path d="M24 36 L30 48 L36 36 L30 40 Z" fill="#f5c542"/></svg>`;
}
