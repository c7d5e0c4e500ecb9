/**
 * What the API fuzzer sends (issue 11, "so this stays true"): a seeded random source, pools of
 * valid-looking and hostile values, and one call's parameters made from a method's contract
 * schema. Everything comes from the seed, so a failing call is replayed with FUZZ_SEED.
 */
import type { z } from 'zod';

/** A small, fast, seeded PRNG (mulberry32): the same seed gives the same calls on every machine. */
export class Random {
  private state: number;
  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }
  chance(probability: number): boolean {
    return this.next() < probability;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
}

/** The seed of this run: FUZZ_SEED when replaying, otherwise a fresh one (printed by the suite). */
export function fuzzSeed(): number {
  const fromEnv = process.env.FUZZ_SEED;
  if (fromEnv !== undefined && fromEnv !== '') {
    const seed = Number(fromEnv);
    if (!Number.isInteger(seed) || seed < 0) throw new Error(`FUZZ_SEED must be a non-negative integer, not ${fromEnv}`);
    return seed;
  }
  return Math.floor(Math.random() * 2 ** 31);
}

/** Values a form would plausibly carry; each field keeps those its own schema accepts. */
const PLAUSIBLE: readonly unknown[] = [
  '1',
  '0',
  '2',
  '10',
  '1.00',
  '5.00',
  'real',
  'demo',
  'deposit',
  'withdrawal',
  'card',
  'EUR',
  'USD',
  'en',
  'it',
  'player@example.com',
  '+393331234567',
  'fox-fortune',
  'dice',
  'roulette',
  'mines',
  'blackjack',
  'crash',
  'live-roulette',
  'theme',
  'key_1',
  'a,b',
  'value',
  'secret12',
  '123456',
  '2026-11-23',
  'req-1',
  'Mario',
  'reveal',
  'hit',
  '{"stake":"1.00"}',
  '{"stake":"1.00","mines":3}',
  '{"stake":"1.00","direction":"under","target":"50.00"}',
  '{"bets":[{"kind":"red","stake":"1.00"}]}',
  '{"cell":12}',
  '{"favorites":true}',
  true,
  1,
];

const LONG = 'A'.repeat(70_000);

/** Hostile values: what an attacker types into any parameter. */
export const HOSTILE: readonly unknown[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\ufeff\u200b\u202e',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🂡🎰',
  'e\u0301\u0301\u0301',
  '\r\nSet-Cookie: x=1',
  '../../../etc/passwd',
  '%00%2e%2e%2f',
  "' OR '1'='1",
  "1'; DROP TABLE users; --",
  '$1',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '{{7*7}}${7*7}',
  '__proto__',
  'constructor',
  '{"__proto__":{"admin":true}}',
  '{',
  '[]',
  'null',
  'NaN',
  'Infinity',
  '-1',
  '-0',
  '1e309',
  '9'.repeat(40),
  '0x10',
  '1.005',
  '-99999999999999999999.99',
  '１２３',
  LONG,
  'é'.repeat(5_000),
  -1,
  0,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  0.1,
  null,
  false,
  [],
  ['a', '\u0000'],
  [1, [2, [3]]],
  {},
  { nested: { deep: ['x'] } },
  { toString: 'x', valueOf: 1 },
];

export type Encoding = 'query' | 'form' | 'json';

/** A contract schema's top-level fields, and whether it takes fields it does not name. */
export function fieldsOf(schema: z.ZodType): { shape: Record<string, z.ZodType>; isOpen: boolean } {
  let current = schema as unknown as { _zod: { def: Record<string, unknown> } };
  for (let depth = 0; depth < 10; depth++) {
    const def = current._zod.def;
    if (def.type === 'object') {
      const catchall = def.catchall as { _zod: { def: { type: string } } } | undefined;
      return {
        shape: def.shape as Record<string, z.ZodType>,
        isOpen: catchall !== undefined && catchall._zod.def.type !== 'never',
      };
    }
    if (def.type === 'record') return { shape: {}, isOpen: true };
    const inner = (def.innerType ?? def.in) as typeof current | undefined;
    if (!inner) break;
    current = inner;
  }
  return { shape: {}, isOpen: false };
}

/** Every enum or literal value anywhere in a field's schema: its own valid choices. */
function choicesOf(schema: z.ZodType): unknown[] {
  const out: unknown[] = [];
  const walk = (node: unknown, depth: number) => {
    if (depth > 8 || !node || typeof node !== 'object') return;
    const def = (node as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
    if (!def) return;
    if (def.type === 'enum') out.push(...Object.values(def.entries as Record<string, unknown>));
    if (def.type === 'literal') out.push(...(def.values as unknown[]));
    for (const key of ['innerType', 'in', 'out', 'element']) walk(def[key], depth + 1);
    for (const option of (def.options as unknown[] | undefined) ?? []) walk(option, depth + 1);
  };
  walk(schema, 0);
  return out;
}

/** The plausible values a field's schema accepts, computed once per field. */
const plausibleCache = new WeakMap<object, unknown[]>();
function plausibleFor(schema: z.ZodType): unknown[] {
  const cached = plausibleCache.get(schema);
  if (cached) return cached;
  const accepted = [...choicesOf(schema), ...PLAUSIBLE].filter((value) => schema.safeParse(value).success);
  plausibleCache.set(schema, accepted);
  return accepted;
}

/** Fields the open schemas (profile, deposit and withdrawal requisites) read by name. */
const OPEN_FIELDS = ['first_name', 'last_name', 'address', 'home_town', 'postcode', 'birth_date', 'requisites', 'iban', 'sex'];

/** Form and query strings carry text only: other values go as their text, or as nested keys. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * One call's parameters for a method: each declared field valid-looking, hostile or missing,
 * sometimes an undeclared one on top. JSON bodies keep the values' own types.
 */
export function generateParams(random: Random, schema: z.ZodType, encoding: Encoding): Record<string, unknown> {
  const { shape, isOpen } = fieldsOf(schema);
  const params: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(shape)) {
    const roll = random.next();
    if (roll < 0.07) continue;
    const plausible = plausibleFor(field);
    params[name] = roll < 0.75 && plausible.length > 0 ? random.pick(plausible) : random.pick(HOSTILE);
  }
  if (isOpen && random.chance(0.7)) params[random.pick(OPEN_FIELDS)] = random.pick([...HOSTILE, 'Mario', 'Via Roma 1', '00100']);
  if (random.chance(0.2))
    params[random.pick(['extra', '__proto__', 'constructor', 'v', 'locale', 'x\u0000'])] = random.pick(HOSTILE);
  if (encoding === 'json') return params;
  return Object.fromEntries(
    Object.entries(params).map(([key, value]) => [key, Array.isArray(value) ? value.map(textOf) : value]),
  );
}

/** The query string or form body of parameters; arrays as `name[]`, objects as `name[key]`. */
export function toSearchParams(params: Record<string, unknown>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (Array.isArray(value)) for (const item of value) out.append(`${name}[]`, textOf(item));
    else if (value && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) out.append(`${name}[${key}]`, textOf(item));
    else out.append(name, textOf(value));
  }
  return out;
}

/** A short printable form of a value for a failure message (long strings cut, control characters escaped). */
export function describeValue(value: unknown): string {
  const text = JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'string' && item.length > 80 ? `${item.slice(0, 40)}…(${item.length} chars)` : item,
  );
  return text ?? String(value);
}
