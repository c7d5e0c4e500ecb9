import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  FairRng,
  LazyShuffle,
  createFairRng,
  hmacSha256Hex,
  isServerSeedOf,
  nextFloat,
  pickDistinct,
  roundBlockHex,
  serverSeedHash,
  shuffle,
  uniformInt,
  type Rng,
} from './fair';
import { chiSquare } from './statistics';

// The worked example of docs/games-rtp.md.
const SEEDS = {
  serverSeed: 'a3c1f0e6d2b4978563412f0e9d8c7b6a5f4e3d2c1b0a99887766554433221100',
  clientSeed: 'player-seed',
  nonce: 1,
};

/** A stream that returns the given draws, then fails: shows exactly which draws a rule takes. */
function scripted(draws: number[]): Rng & { taken: number } {
  return {
    taken: 0,
    nextUint32() {
      if (this.taken >= draws.length) throw new Error('the script ran out of draws');
      return draws[this.taken++]!;
    },
  };
}

// Upper 0.1 % points of chi-square: a fixed-seed sample above them would be a 1-in-1000 fluke.
const CHI_SQUARE_999 = { 5: 20.52, 9: 27.88, 19: 43.82, 24: 51.18 } as const;

describe('the provably fair commitment (architecture §6: the hash is shown before play, the seed revealed on rotation)', () => {
  it('hashes the server seed with SHA-256 as the published example says', () => {
    expect(serverSeedHash(SEEDS.serverSeed)).toBe('05c63e8eb466d5f06e37ad2036582ca7ec3466cb09d15537fa489f7879c7c781');
    expect(isServerSeedOf(SEEDS.serverSeed, '05C63E8EB466D5F06E37AD2036582CA7EC3466CB09D15537FA489F7879C7C781')).toBe(true);
    expect(isServerSeedOf(`${SEEDS.serverSeed}0`, serverSeedHash(SEEDS.serverSeed))).toBe(false);
  });

  it('reads block(cursor) = HMAC-SHA256(serverSeed, "clientSeed:nonce:cursor"), as node:crypto computes it', () => {
    expect(roundBlockHex(SEEDS, 0)).toBe('87b4a3306445fa5c19512c47bf57033653b128ac70f529a52de1c210c8f1a712');
    expect(roundBlockHex(SEEDS, 1)).toBe('0591c7b7757ecba7dfc8146ae1ec3ade91bccc8bb5ff47dde773aa2300051e89');
    expect(hmacSha256Hex('key', 'The quick brown fox jumps over the lazy dog')).toBe(
      createHmac('sha256', 'key').update('The quick brown fox jumps over the lazy dog').digest('hex'),
    );
  });
});

describe('the stream of draws (4 bytes each, 8 per block, then the next cursor)', () => {
  it('takes the blocks 4 bytes at a time, big-endian, crossing into cursor 1 at the ninth draw', () => {
    const rng = createFairRng(SEEDS);
    const draws = Array.from({ length: 10 }, () => rng.nextUint32());
    expect(draws.slice(0, 2)).toEqual([0x87b4a330, 0x6445fa5c]);
    expect(draws.slice(2, 8)).toEqual([0x19512c47, 0xbf570336, 0x53b128ac, 0x70f529a5, 0x2de1c210, 0xc8f1a712]);
    expect(draws.slice(8)).toEqual([0x0591c7b7, 0x757ecba7]);
    expect(rng.position).toBe(10);
  });

  it('gives the same draws for the same seeds and nonce, and others for another nonce or client seed', () => {
    const first = Array.from(
      { length: 20 },
      (
        (rng) => () =>
          rng.nextUint32()
      )(createFairRng(SEEDS)),
    );
    const again = Array.from(
      { length: 20 },
      (
        (rng) => () =>
          rng.nextUint32()
      )(createFairRng({ ...SEEDS })),
    );
    const otherNonce = Array.from(
      { length: 20 },
      (
        (rng) => () =>
          rng.nextUint32()
      )(createFairRng({ ...SEEDS, nonce: 2 })),
    );
    const otherClient = Array.from(
      { length: 20 },
      (
        (rng) => () =>
          rng.nextUint32()
      )(createFairRng({ ...SEEDS, clientSeed: 'player-seed2' })),
    );
    expect(again).toEqual(first);
    expect(otherNonce).not.toEqual(first);
    expect(otherClient).not.toEqual(first);
  });

  it('reads the blocks of cursors whose decimal digits grow (9, 10, 99, 100, 1000) as node:crypto computes them', () => {
    for (const cursor of [9, 10, 11, 99, 100, 1000]) {
      const rng = new FairRng(SEEDS, cursor * 8);
      const block = Array.from({ length: 8 }, () => rng.nextUint32().toString(16).padStart(8, '0')).join('');
      const message = `${SEEDS.clientSeed}:${SEEDS.nonce}:${cursor}`;
      expect(block).toBe(createHmac('sha256', SEEDS.serverSeed).update(message).digest('hex'));
    }
  });

  it('reads the blocks as node:crypto for client seeds of any length, ASCII or not, across the one-block message limit', () => {
    // The stream keeps short messages packed in one SHA-256 block and longer ones as bytes
    // (issue 12); both, and the seams between them, must give step 3's blocks.
    const clientSeeds = Array.from({ length: 80 }, (_, length) => 'abcdefghij'.repeat(8).slice(0, length));
    clientSeeds.push('player-chosen ✓', 'é'.repeat(19), 'é'.repeat(20), '🎲'.repeat(12), `${'x'.repeat(37)}é`);
    for (const clientSeed of clientSeeds) {
      for (const nonce of [0, 7, 123_456_789]) {
        // Cursors 0 to 11 in turn (each overwrites the last one's digits, 9 to 10 adds one), then
        // a long cursor, whose digits run past a packed message's words.
        const rng = new FairRng({ ...SEEDS, clientSeed, nonce });
        for (let cursor = 0; cursor < 12; cursor++) {
          const block = Array.from({ length: 8 }, () => rng.nextUint32().toString(16).padStart(8, '0')).join('');
          expect(block).toBe(createHmac('sha256', SEEDS.serverSeed).update(`${clientSeed}:${nonce}:${cursor}`).digest('hex'));
        }
        const far = 12_345_678_901;
        const resumed = new FairRng({ ...SEEDS, clientSeed, nonce }, far * 8);
        const block = Array.from({ length: 8 }, () => resumed.nextUint32().toString(16).padStart(8, '0')).join('');
        expect(block).toBe(createHmac('sha256', SEEDS.serverSeed).update(`${clientSeed}:${nonce}:${far}`).digest('hex'));
      }
    }
  });

  it('resumes a saved round at its position with the draws it would have given', () => {
    const whole = createFairRng(SEEDS);
    const expected = Array.from({ length: 30 }, () => whole.nextUint32());
    for (const start of [0, 3, 8, 13, 16]) {
      const resumed = new FairRng(SEEDS, start);
      expect(Array.from({ length: 30 - start }, () => resumed.nextUint32())).toEqual(expected.slice(start));
    }
  });

  it('turns a draw into a float as b0/256 + b1/256² + b2/256³ + b3/256⁴', () => {
    expect(nextFloat(scripted([0x87b4a330]))).toBe(0x87 / 256 + 0xb4 / 256 ** 2 + 0xa3 / 256 ** 3 + 0x30 / 256 ** 4);
    expect(nextFloat(scripted([0xffffffff]))).toBeLessThan(1);
    expect(nextFloat(scripted([0]))).toBe(0);
  });

  it('spreads floats evenly over 20 bins of [0, 1) (chi-square, 200 000 draws, 19 degrees of freedom)', () => {
    const rng = createFairRng({ ...SEEDS, nonce: 77 });
    const bins = new Array<number>(20).fill(0);
    for (let i = 0; i < 200_000; i++) bins[Math.floor(rng.nextFloat() * 20)]!++;
    expect(chiSquare(bins, new Array<number>(20).fill(10_000))).toBeLessThan(CHI_SQUARE_999[19]);
  });
});

describe('uniformInt: integers in [0, n) without modulo bias', () => {
  it('rejects a draw at or above 2³² − (2³² mod n) and takes the next one', () => {
    // 2³² mod 3 = 1: the single draw 2³² − 1 would make 0 more likely than 1 and 2.
    const rng = scripted([0xffffffff, 7]);
    expect(uniformInt(rng, 3)).toBe(1);
    expect(rng.taken).toBe(2);
    expect(uniformInt(scripted([0xfffffffe]), 3)).toBe(0xfffffffe % 3);
  });

  it('gives each of 10 values a tenth of the time (chi-square, 100 000 draws, 9 degrees of freedom)', () => {
    const rng = createFairRng({ ...SEEDS, nonce: 5 });
    const counts = new Array<number>(10).fill(0);
    for (let i = 0; i < 100_000; i++) counts[rng.uniformInt(10)]!++;
    expect(chiSquare(counts, new Array<number>(10).fill(10_000))).toBeLessThan(CHI_SQUARE_999[9]);
  });

  it('keeps the values below 2³² mod n as likely as the rest where u mod n alone would double them', () => {
    // n = 3·2³⁰: u mod n maps [0, 2³⁰) twice, so without rejection half the values would fall
    // there instead of a third. 30 000 draws: the standard error of a third is 0.0027.
    const n = 3 * 2 ** 30;
    const rng = createFairRng({ ...SEEDS, nonce: 9 });
    let low = 0;
    for (let i = 0; i < 30_000; i++) if (rng.uniformInt(n) < 2 ** 30) low++;
    expect(Math.abs(low / 30_000 - 1 / 3)).toBeLessThan(5 * Math.sqrt(((1 / 3) * (2 / 3)) / 30_000));
  });

  it('refuses a range that is not a whole number from 1 to 2³²', () => {
    const rng = createFairRng(SEEDS);
    for (const n of [0, -1, 1.5, 2 ** 32 + 1, Number.NaN]) expect(() => uniformInt(rng, n)).toThrow(RangeError);
    expect(uniformInt(rng, 1)).toBe(0);
  });
});

describe('Fisher–Yates shuffle for cards and mines', () => {
  it('swaps item i with i + uniformInt(n − i) from the front, and the last item takes no draw', () => {
    // uniformInt(3) ← 2, uniformInt(2) ← 1: [a b c] → [c b a] → [c a b].
    const rng = scripted([2, 1]);
    expect(shuffle(rng, ['a', 'b', 'c'])).toEqual(['c', 'a', 'b']);
    expect(rng.taken).toBe(2);
  });

  it('makes each of the 6 orders of 3 items equally likely (chi-square, 60 000 shuffles, 5 degrees of freedom)', () => {
    const rng = createFairRng({ ...SEEDS, nonce: 11 });
    const counts = new Map<string, number>();
    for (let i = 0; i < 60_000; i++) {
      const order = rng.shuffle([1, 2, 3]).join('');
      counts.set(order, (counts.get(order) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    expect(chiSquare([...counts.values()], new Array<number>(6).fill(10_000))).toBeLessThan(CHI_SQUARE_999[5]);
  });

  it('puts every item in every place equally often (25 cells, position of cell 0, 24 degrees of freedom)', () => {
    const rng = createFairRng({ ...SEEDS, nonce: 12 });
    const places = new Array<number>(25).fill(0);
    const cells = Array.from({ length: 25 }, (_, i) => i);
    for (let i = 0; i < 25_000; i++) places[rng.shuffle(cells).indexOf(0)]!++;
    expect(chiSquare(places, new Array<number>(25).fill(1_000))).toBeLessThan(CHI_SQUARE_999[24]);
  });

  it('deals lazily exactly the order of the full shuffle on the same stream, drawing only what it deals', () => {
    for (const nonce of [1, 2, 3]) {
      const full = shuffle(
        createFairRng({ ...SEEDS, nonce }),
        Array.from({ length: 312 }, (_, i) => i),
      );
      const lazyRng = createFairRng({ ...SEEDS, nonce });
      const lazy = new LazyShuffle(lazyRng, 312);
      expect(Array.from({ length: 10 }, () => lazy.next())).toEqual(full.slice(0, 10));
      expect(lazyRng.position).toBeLessThan(12);
      expect(Array.from({ length: 302 }, () => lazy.next())).toEqual(full.slice(10));
      expect(() => lazy.next()).toThrow(RangeError);
    }
  });

  it('picks k distinct items as the first k of the shuffle', () => {
    const picked = pickDistinct(createFairRng(SEEDS), 25, 24);
    expect(new Set(picked).size).toBe(24);
    expect(picked).toEqual(
      shuffle(
        createFairRng(SEEDS),
        Array.from({ length: 25 }, (_, i) => i),
      ).slice(0, 24),
    );
    expect(() => pickDistinct(createFairRng(SEEDS), 25, 26)).toThrow(RangeError);
  });
});
