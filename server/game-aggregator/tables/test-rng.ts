/**
 * Random sources for the table tests: a seeded generator (the simulations are reproducible) and a
 * scripted one that makes a Shoe deal chosen cards, so a rule test names the cards it plays.
 */
import type { Rng } from '../title';
import { type Card, SUITS, cardOf } from './cards';

/** sfc32, seeded: fast, 128 bits of state, floats with 32 random bits (plenty for ≤ 416 cards). */
export function seededRng(seed: number): Rng {
  let a = 0x9e3779b9 ^ seed;
  let b = 0x243f6a88 + seed;
  let c = 0xb7e15162;
  let d = seed * 2654435761;
  const next = () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

/** "A♠" style names for readable tests: rank A, 2–10, J, Q, K and suit s, h, d, c. */
export function card(name: string): Card {
  const match = /^(A|[2-9]|10|J|Q|K)([shdc])$/.exec(name);
  if (!match) throw new Error(`not a card: ${name}`);
  const rank = { A: 1, J: 11, Q: 12, K: 13 }[match[1]!] ?? Number(match[1]);
  return { rank, suit: SUITS['shdc'.indexOf(match[2]!)]! };
}

/**
 * An Rng that makes `new Shoe(rng, decks)` deal `names` in order. It replays the shoe's sparse
 * Fisher–Yates to find a slot holding each wanted card and answers the float that picks it.
 * Draws beyond the script (or other uses) get 0.5.
 */
export function dealing(decks: number, names: readonly string[]): Rng {
  const size = decks * 52;
  const swapped = new Map<number, number>();
  const at = (slot: number) => swapped.get(slot) ?? slot;
  let dealt = 0;
  const wanted = names.map(card);
  return () => {
    if (dealt >= wanted.length) return 0.5;
    const want = wanted[dealt]!;
    let pick = -1;
    for (let slot = dealt; slot < size; slot++) {
      const found = cardOf(at(slot));
      if (found.rank === want.rank && found.suit === want.suit) {
        pick = slot;
        break;
      }
    }
    if (pick < 0) throw new Error(`the shoe has no ${names[dealt]} left`);
    swapped.set(pick, at(dealt));
    const float = (pick - dealt + 0.5) / (size - dealt);
    dealt++;
    return float;
  };
}
