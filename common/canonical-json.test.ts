/**
 * canonicalJson is what the ledger's idempotency keys and audit chain hash (architecture §5): a
 * change of a single byte would make every stored hash disagree with the verifier. These tests
 * hold it to the serialisation every stored hash was made with (the first implementation, kept
 * here as the reference) over many random values, and to JSON that reads back as the value.
 */
import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CanonicalText, canonicalJson } from './canonical-json';

/** The serialisation the stored hashes were made with (entries sorted by `<`, bigints as strings). */
function referenceJson(value: unknown): string {
  if (typeof value === 'bigint') return JSON.stringify(value.toString());
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(referenceJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${referenceJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const KEY_CHARACTERS = ['a', 'B', 'z', '_', '0', 'é', '€', '"', '\\', '\n', '😀', 'ä', ' '];

function randomKey(): string {
  return Array.from({ length: randomInt(0, 5) }, () => KEY_CHARACTERS[randomInt(KEY_CHARACTERS.length)]).join('');
}

function randomValue(depth: number): unknown {
  const kind = randomInt(depth > 3 ? 8 : 11);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return undefined;
    case 2:
      return randomInt(2) === 0;
    case 3:
      return (randomInt(2) === 0 ? -1 : 1) * randomInt(1_000_000_000) + (randomInt(3) === 0 ? 0.25 : 0);
    case 4:
      return BigInt(randomInt(1_000_000_000)) * BigInt(randomInt(1_000_000_000)) * (randomInt(2) === 0 ? -1n : 1n);
    case 5:
      return randomKey();
    case 6:
      return new Date(randomInt(0, 4_000_000_000) * 1000);
    case 7:
      return [Number.NaN, Number.POSITIVE_INFINITY, -0][randomInt(3)];
    case 8:
    case 9:
      return Object.fromEntries(Array.from({ length: randomInt(0, 6) }, () => [randomKey(), randomValue(depth + 1)]));
    default:
      return Array.from({ length: randomInt(0, 5) }, () => randomValue(depth + 1));
  }
}

describe('canonicalJson (ledger idempotency keys and audit hashes, architecture §5)', () => {
  it('writes every value exactly as the serialisation the stored hashes were made with', () => {
    for (let sample = 0; sample < 5_000; sample++) {
      const value = randomValue(0);
      expect(canonicalJson(value)).toBe(referenceJson(value));
    }
  });

  it('sorts keys by UTF-16 code unit and leaves out undefined members, whatever the insertion order', () => {
    const value = { b: 1, a: undefined, é: 2, Z: 3, '😀': 4, '€': 5 };
    const reordered = Object.fromEntries(Object.entries(value).reverse());
    const text = canonicalJson(value);
    expect(text).toBe(canonicalJson(reordered));
    expect(Object.keys(JSON.parse(text) as object)).toEqual(
      Object.keys(value)
        .filter((key) => value[key as keyof typeof value] !== undefined)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    );
  });

  it('reads back as the value with bigints as strings', () => {
    const value = { amountMinor: 12_345_678_901_234_567_890n, postings: [{ accountId: 7, amountMinor: -5n }] };
    expect(JSON.parse(canonicalJson(value))).toEqual({
      amountMinor: value.amountMinor.toString(),
      postings: [{ accountId: 7, amountMinor: '-5' }],
    });
  });

  it('a CanonicalText member is written as it is: the same text as serialising its value in place', () => {
    for (let sample = 0; sample < 500; sample++) {
      const inner = randomValue(1) ?? {};
      const outer = { stream: randomKey(), at: new Date(), inner };
      expect(canonicalJson({ ...outer, inner: new CanonicalText(canonicalJson(inner)) })).toBe(canonicalJson(outer));
    }
  });
});
