/**
 * Provably fair randomness for every in-house game (architecture §6). The server commits to its
 * seed before the player bets, the player adds a seed of their own, and every random choice of a
 * round is read from one published stream, so anyone holding the seeds can recompute the round.
 * The browser's verification page imports this file: it is pure and synchronous.
 *
 * The algorithm (a player can recompute each step with any HMAC-SHA256 tool):
 *
 *  1. The server draws a secret server seed (text, e.g. 64 hex digits) and shows its hash,
 *     SHA-256 of the seed's UTF-8 bytes in lowercase hex, before the first round played on it.
 *  2. The player sets a client seed (any text). Rounds played on one seed pair are numbered by a
 *     nonce 0, 1, 2, …, so no two rounds read the same stream.
 *  3. The bytes of a round are the blocks
 *         block(cursor) = HMAC-SHA256(key = serverSeed, message = `${clientSeed}:${nonce}:${cursor}`)
 *     for cursor = 0, 1, 2, … (key and message as UTF-8 bytes, numbers in decimal), 32 bytes each.
 *  4. Draw k (k = 0, 1, …) takes 4 bytes b0 b1 b2 b3 = bytes 4·(k mod 8) … 4·(k mod 8) + 3 of
 *     block(⌊k / 8⌋): the integer u = b0·2²⁴ + b1·2¹⁶ + b2·2⁸ + b3, in [0, 2³²).
 *  5. A float is u / 2³² = b0/256 + b1/256² + b2/256³ + b3/256⁴, in [0, 1).
 *  6. An integer in [0, n) is u mod n, but a draw u ≥ 2³² − (2³² mod n) is discarded and the next
 *     draw is taken instead (rejection): every value then has exactly the same chance, where
 *     u mod n alone would favour the small values.
 *  7. A shuffle of n items is the forward Fisher–Yates: for i = 0 … n − 2, j = i + integer in
 *     [0, n − i), swap items i and j. The first k items after k steps are a uniform choice of k
 *     distinct items (mines), and cards can be dealt lazily: the k-th card dealt is item k of the
 *     full shuffle.
 *  8. When the player rotates seeds the server reveals the old server seed: its SHA-256 must be
 *     the hash shown in step 1, and every past round on it can be recomputed.
 *
 * Each game documents which draws it takes, in which order (docs/games-rtp.md).
 */
import { KeyedHmacSha256, SINGLE_BLOCK_BYTES, bytesToHex, hmacSha256, sha256Hex, utf8Bytes } from './sha256';

export { sha256Hex } from './sha256';

/** Where engines read randomness from: the fair stream in play, a scripted one in tests. */
export interface Rng {
  /** The next draw: an integer in [0, 2³²). */
  nextUint32(): number;
}

export interface RoundSeeds {
  serverSeed: string;
  clientSeed: string;
  /** The round's number under this seed pair: a non-negative integer. */
  nonce: number;
}

const TWO_POW_32 = 0x1_0000_0000;
const WORDS_PER_BLOCK = 8;

export function hmacSha256Hex(key: string, message: string): string {
  return bytesToHex(hmacSha256(utf8Bytes(key), utf8Bytes(message)));
}

/** The commitment shown before play: SHA-256 of the server seed, lowercase hex. */
export function serverSeedHash(serverSeed: string): string {
  return sha256Hex(serverSeed);
}

export function isServerSeedOf(serverSeed: string, shownHash: string): boolean {
  return serverSeedHash(serverSeed) === shownHash.toLowerCase();
}

/** The hex of block(cursor) of a round (step 3), as a verification page lists it. */
export function roundBlockHex(seeds: RoundSeeds, cursor: number): string {
  return hmacSha256Hex(seeds.serverSeed, `${seeds.clientSeed}:${seeds.nonce}:${cursor}`);
}

// Simulations run millions of rounds on one server seed: keep its keyed HMAC.
let lastKey: { serverSeed: string; hmac: KeyedHmacSha256 } | undefined;

function keyedHmac(serverSeed: string): KeyedHmacSha256 {
  if (lastKey?.serverSeed !== serverSeed) lastKey = { serverSeed, hmac: new KeyedHmacSha256(utf8Bytes(serverSeed)) };
  return lastKey.hmac;
}

/** The most decimal digits a cursor can have (Number.MAX_SAFE_INTEGER has 16). */
const MAX_CURSOR_DIGITS = 16;

/** The stream of one round (steps 3–4), with the derived draws as methods. */
export class FairRng implements Rng {
  private readonly hmac: KeyedHmacSha256;
  /** The UTF-8 bytes of `${clientSeed}:${nonce}:`, the part of the message every cursor shares. */
  private readonly prefixLength: number;
  /**
   * The message packed into SHA-256 block words, when it fits one block with any cursor (every
   * usual client seed): a refill rewrites only the cursor's words, where repacking the whole
   * message every eight draws was a tenth of a simulated round (issue 12).
   */
  private readonly packed: Int32Array | undefined;
  /** Otherwise the message's bytes, the cursor's digits written after the prefix. */
  private readonly message: Uint8Array | undefined;
  private readonly words = new Uint32Array(WORDS_PER_BLOCK);
  private nextCursor = 0;
  private wordIndex = WORDS_PER_BLOCK;
  private drawn = 0;

  /** `startPosition` resumes a round after that many draws (a game state saved between requests). */
  constructor(seeds: RoundSeeds, startPosition = 0) {
    if (!Number.isSafeInteger(seeds.nonce) || seeds.nonce < 0) throw new RangeError('the nonce must be a non-negative integer');
    if (!Number.isSafeInteger(startPosition) || startPosition < 0)
      throw new RangeError('the start position must be a non-negative integer');
    this.hmac = keyedHmac(seeds.serverSeed);
    const prefix = `${seeds.clientSeed}:${seeds.nonce}:`;
    // ASCII seeds are the rule: their characters are their bytes, with no array of bytes built.
    const prefixBytes = isAscii(prefix) ? undefined : utf8Bytes(prefix);
    this.prefixLength = prefixBytes?.length ?? prefix.length;
    if (this.prefixLength + MAX_CURSOR_DIGITS <= SINGLE_BLOCK_BYTES) {
      this.packed = new Int32Array(16);
      for (let i = 0; i < this.prefixLength; i++) orPackedByte(this.packed, i, prefixBytes?.[i] ?? prefix.charCodeAt(i));
    } else {
      this.message = new Uint8Array(this.prefixLength + MAX_CURSOR_DIGITS);
      this.message.set(prefixBytes ?? utf8Bytes(prefix));
    }
    this.nextCursor = Math.floor(startPosition / WORDS_PER_BLOCK);
    if (startPosition % WORDS_PER_BLOCK !== 0) {
      this.refill();
      this.wordIndex = startPosition % WORDS_PER_BLOCK;
    }
    this.drawn = startPosition;
  }

  /** How many draws the round has taken so far. */
  get position(): number {
    return this.drawn;
  }

  nextUint32(): number {
    if (this.wordIndex === WORDS_PER_BLOCK) this.refill();
    this.drawn++;
    return this.words[this.wordIndex++]!;
  }

  nextFloat(): number {
    return nextFloat(this);
  }

  uniformInt(n: number): number {
    return uniformInt(this, n);
  }

  shuffle<T>(items: readonly T[]): T[] {
    return shuffle(this, items);
  }

  private refill(): void {
    // The cursor's decimal digits after the prefix, written from the last one back without a
    // string: a round refills every eight draws, and simulations run millions of rounds.
    let cursor = this.nextCursor++;
    let end = this.prefixLength + 1;
    for (let rest = cursor; rest >= 10; rest = Math.floor(rest / 10)) end++;
    const { packed, message } = this;
    if (packed) clearPackedFrom(packed, this.prefixLength);
    for (let i = end - 1; i >= this.prefixLength; i--) {
      const digit = 0x30 + (cursor % 10);
      if (packed) orPackedByte(packed, i, digit);
      else message![i] = digit;
      cursor = Math.floor(cursor / 10);
    }
    if (packed) this.hmac.digestPackedWords(packed, end, this.words);
    else this.hmac.digestWords(message!, this.words, end);
    this.wordIndex = 0;
  }
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** Sets byte `index` of a message packed big-endian into words, where it is still 0. */
function orPackedByte(words: Int32Array, index: number, byte: number): void {
  words[index >> 2]! |= byte << (24 - 8 * (index & 3));
}

/** Zeroes every packed byte from byte `from` on. */
function clearPackedFrom(words: Int32Array, from: number): void {
  const partial = from & 3;
  let word = from >> 2;
  if (partial !== 0) words[word] = words[word++]! & (-1 << (32 - 8 * partial));
  for (; word < 16; word++) words[word] = 0;
}

export function createFairRng(seeds: RoundSeeds, startPosition = 0): FairRng {
  return new FairRng(seeds, startPosition);
}

/** Step 5: a float in [0, 1) with 32 random bits. */
export function nextFloat(rng: Rng): number {
  return rng.nextUint32() / TWO_POW_32;
}

/** Step 6: an integer in [0, n), every value equally likely (rejection, no modulo bias). */
export function uniformInt(rng: Rng, n: number): number {
  if (!Number.isSafeInteger(n) || n < 1 || n > TWO_POW_32)
    throw new RangeError(`uniformInt needs an integer n in [1, 2^32], got ${n}`);
  const limit = TWO_POW_32 - (TWO_POW_32 % n);
  for (;;) {
    const u = rng.nextUint32();
    if (u < limit) return u % n;
  }
}

/** Step 7: a new array with the items in forward Fisher–Yates order. */
export function shuffle<T>(rng: Rng, items: readonly T[]): T[] {
  const result = items.slice();
  for (let i = 0; i < result.length - 1; i++) {
    const j = i + uniformInt(rng, result.length - i);
    const item = result[i]!;
    result[i] = result[j]!;
    result[j] = item;
  }
  return result;
}

/** The first k indices of a forward Fisher–Yates of 0 … n − 1: k distinct, uniformly chosen. */
export function pickDistinct(rng: Rng, n: number, k: number): number[] {
  if (!Number.isSafeInteger(k) || k < 0 || k > n) throw new RangeError(`cannot pick ${k} of ${n}`);
  const lazy = new LazyShuffle(rng, n);
  return Array.from({ length: k }, () => lazy.next());
}

/**
 * Deals the forward Fisher–Yates of 0 … n − 1 one index at a time, drawing only what it deals:
 * the k-th index it returns is item k of `shuffle` of the whole array on the same stream.
 */
export class LazyShuffle {
  // Only the positions a swap has touched differ from the identity, and a round deals a few
  // cards: two short arrays (position, item) searched in order cost less to build and to collect
  // than a Map, which simulations made a large share of a blackjack round (issue 12).
  private readonly touched: number[] = [];
  private readonly items: number[] = [];
  private dealt = 0;

  constructor(
    private readonly rng: Rng,
    readonly size: number,
  ) {}

  get count(): number {
    return this.dealt;
  }

  next(): number {
    const i = this.dealt;
    if (i >= this.size) throw new RangeError('the shuffle is exhausted');
    this.dealt++;
    const atI = this.itemAt(i);
    // The full shuffle stops at n − 2: the last item takes no draw.
    if (i === this.size - 1) return atI;
    const j = i + uniformInt(this.rng, this.size - i);
    const atJ = this.itemAt(j);
    this.place(j, atI);
    this.forget(i);
    return atJ;
  }

  private itemAt(position: number): number {
    const k = this.touched.indexOf(position);
    return k < 0 ? position : this.items[k]!;
  }

  private place(position: number, item: number): void {
    const k = this.touched.indexOf(position);
    if (k >= 0) this.items[k] = item;
    else {
      this.touched.push(position);
      this.items.push(item);
    }
  }

  /** Position `position` is dealt and never read again. */
  private forget(position: number): void {
    const k = this.touched.indexOf(position);
    if (k < 0) return;
    const last = this.touched.length - 1;
    this.touched[k] = this.touched[last]!;
    this.items[k] = this.items[last]!;
    this.touched.pop();
    this.items.pop();
  }
}
