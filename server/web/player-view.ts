/**
 * A signed-in player's part of a page, for the shared signed-in render (player-pages.ts, issue 12).
 *
 * A page a player gets differs from another player's page in two ways:
 * - its shape: what the page shows or leaves out (two-factor on, loyalty active, which games are
 *   liked, a zero or a positive balance, the site's levels…). Players of one shape share a render;
 * - its free values: the login, the balances, the loyalty points… A shared render is made for
 *   made-up values that can be found in its text (a "template"), and each answer puts the player's
 *   own values in their place, escaped for where they stand.
 *
 * Free values are declared below, field by field; everything else is shape. A free value keeps its
 * kind in the template (a count stays a positive integer, an amount a two-decimal amount, a login
 * with an @ an address with an @), equal values stay equal and ordered values keep their order, so
 * a page that compares them still takes the same branch. Zero, empty and missing values are shape:
 * they go into the template as they are.
 */
import { randomInt } from 'node:crypto';
import type { AccountInfo } from '#common/api-contract';
import type { InProcessAnswer } from '#common/load-context';
import { amountToMinor, formatMoney, groupThousands, totalBalance } from '#common/money';

/** What a page reads of its player: the account, and the answers of the page's player calls by address. */
export interface PlayerView {
  account: AccountInfo;
  calls: Record<string, InProcessAnswer>;
}

/** A free value's form: an id and a text keep only which values are equal, the others their order too. */
type Kind = 'id' | 'count' | 'amount' | 'text' | 'time';

/**
 * A free field: its path, its kind, and its group, the fields whose values the shape relates
 * (equal, or in order): the account's uid and the loyalty answer's uid are one group.
 */
type FieldSpec = [path: string, kind: Kind, group: string];

const BALANCE_NAMES = ['balance_main', 'balance_bonus', 'balance_betting_bonus', 'balance_fun'] as const;

/** The account's free fields (paths into AccountInfo). */
const ACCOUNT_FIELDS: FieldSpec[] = [
  ['uid', 'id', 'uid'],
  ['reg_time', 'time', 'reg_time'],
  ['login', 'text', 'names'],
  ['fakename', 'text', 'names'],
  ...BALANCE_NAMES.map((name): FieldSpec => [`balances.${name}.amount`, 'amount', 'balances']),
];

/**
 * The product-API methods whose answer is the signed-in player's own, with their free fields
 * (paths into the answer's body). A page that calls any other method that reads the player is
 * not shared (player-pages.ts, SAME_FOR_EVERY_PLAYER).
 */
export const PLAYER_CALL_FIELDS: Record<string, FieldSpec[]> = {
  'loyalty.getinfo': [
    ['data.id', 'id', 'loyalty account'],
    ['data.uid', 'id', 'uid'],
    ['data.points', 'count', 'points'],
    ['data.experience', 'count', 'points'],
    ['data.progress.expCount', 'count', 'progress'],
  ],
  // The liked games decide which hearts are filled: shape.
  'games.getlikes': [],
};

/** A call's method as the player-call table names it: `loyalty.getinfo` of `/api/loyalty.getInfo?locale=en`. */
export function callMethod(path: string): string {
  return new URL(path, 'http://in-process').pathname.replace(/^\/api\//, '').toLowerCase();
}

/** A free value's place in a view: the account or a call's answer, and the path into it. */
export interface FreeField {
  /** 'account', or the call's address. */
  source: string;
  path: string;
  kind: Kind;
  group: string;
}

interface Leaf {
  kind: Kind;
  group: string;
  value: string | number;
  /** The object holding the value, and its name there. */
  holder: Record<string, unknown>;
  name: string;
  /** For an amount: its currency, which its display form needs. */
  currency?: string;
}

const AMOUNT = /^-?\d{1,15}\.\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Characters a text keeps as they are both in HTML and inside the page's data script. */
const PLAIN_TEXT = /^[\p{L}\p{N} @._+-]+$/u;

/** Whether a player's value is free (changes per player without changing the page) or shape. */
function isFree(kind: Kind, value: unknown): value is string | number {
  switch (kind) {
    case 'id':
    case 'count':
      return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
    case 'amount':
      return typeof value === 'string' && AMOUNT.test(value) && amountToMinor(value) !== 0n;
    case 'text':
      return typeof value === 'string' && value.length > 0 && PLAIN_TEXT.test(value);
    case 'time':
      return typeof value === 'string' && ISO_TIME.test(value) && !Number.isNaN(Date.parse(value));
  }
}

function sourceOf(view: PlayerView, source: string): unknown {
  return source === 'account' ? view.account : view.calls[source]?.body;
}

/** The object holding a path's last name, and that name. */
function holderOf(root: unknown, path: string): { holder: Record<string, unknown>; name: string } | undefined {
  const names = path.split('.');
  const name = names.pop()!;
  let parent: unknown = root;
  for (const part of names) {
    if (typeof parent !== 'object' || parent === null) return undefined;
    parent = (parent as Record<string, unknown>)[part];
  }
  return typeof parent === 'object' && parent !== null ? { holder: parent as Record<string, unknown>, name } : undefined;
}

/** A player's free values, in a fixed order: the account's fields, then each call's in address order. */
export function freeFieldsOf(view: PlayerView): FreeField[] {
  const declared: FreeField[] = ACCOUNT_FIELDS.map(([path, kind, group]) => ({ source: 'account', path, kind, group }));
  for (const source of Object.keys(view.calls).sort()) {
    const fields = PLAYER_CALL_FIELDS[callMethod(source)] ?? [];
    declared.push(...fields.map(([path, kind, group]) => ({ source, path, kind, group })));
  }
  return declared.filter((field) => {
    const place = holderOf(sourceOf(view, field.source), field.path);
    return place !== undefined && isFree(field.kind, place.holder[place.name]);
  });
}

/** The values at the fields (found by freeFieldsOf on this view or on the one it was made from). */
function leavesOf(view: PlayerView, fields: readonly FreeField[]): Leaf[] {
  return fields.map((field) => {
    const { holder, name } = holderOf(sourceOf(view, field.source), field.path)!;
    const currency = field.kind === 'amount' && typeof holder.currency === 'string' ? holder.currency : undefined;
    return {
      kind: field.kind,
      group: field.group,
      value: holder[name] as string | number,
      holder,
      name,
      ...(currency ? { currency } : {}),
    };
  });
}

/** Values of one kind ordered as the page could compare them. */
function compare(kind: OrderedKind, a: string | number, b: string | number): number {
  if (kind === 'count') return Number(a) - Number(b);
  if (kind === 'amount') {
    const difference = amountToMinor(String(a)) - amountToMinor(String(b));
    return difference > 0n ? 1 : difference < 0n ? -1 : 0;
  }
  return Date.parse(String(a)) - Date.parse(String(b));
}

type OrderedKind = 'count' | 'amount' | 'time';
const isOrdered = (kind: Kind): kind is OrderedKind => kind === 'count' || kind === 'amount' || kind === 'time';

/** The distinct values of each group, ordered where the kind is. */
function distinctByGroup(leaves: readonly Leaf[]): Map<string, { kind: Kind; values: (string | number)[] }> {
  const groups = new Map<string, { kind: Kind; values: (string | number)[] }>();
  for (const leaf of leaves) {
    const group = groups.get(leaf.group) ?? { kind: leaf.kind, values: [] };
    if (!group.values.includes(leaf.value)) group.values.push(leaf.value);
    groups.set(leaf.group, group);
  }
  for (const { kind, values } of groups.values()) if (isOrdered(kind)) values.sort((a, b) => compare(kind, a, b));
  return groups;
}

/** Each leaf's place among the distinct values of its group: what the shape keeps of a free value. */
function ranksOf(leaves: Leaf[]): string[] {
  const groups = distinctByGroup(leaves);
  return leaves.map((leaf) => {
    const rank = groups.get(leaf.group)!.values.indexOf(leaf.value);
    const value = String(leaf.value);
    const detail =
      leaf.kind === 'amount' ? (value.startsWith('-') ? '-' : '+') : leaf.kind === 'text' && value.includes('@') ? '@' : '';
    return `${leaf.group}${rank}${detail}`;
  });
}

/**
 * The view's shape: the view with each free value replaced by its group and rank. Two players with
 * the same shape get the same page but for their free values.
 */
export function shapeOf(view: PlayerView, fields: readonly FreeField[]): string {
  const ranks = ranksOf(leavesOf(view, fields));
  const marksOf = (source: string) =>
    fields.flatMap((field, index): [string, string][] =>
      field.source === source ? [[field.path, `\u0000${ranks[index]}`]] : [],
    );
  const calls = Object.keys(view.calls)
    .sort()
    .map((path) => [path, { ...view.calls[path], body: withMarks(view.calls[path]!.body, marksOf(path)) }]);
  return JSON.stringify([withMarks(view.account, marksOf('account')), calls]);
}

/**
 * The value with a mark at each path: only the objects on the way to a mark are copied (a shape
 * is made for every signed-in answer; copying the whole view cost more than rendering it out).
 */
function withMarks(root: unknown, marks: readonly [path: string, mark: string][]): unknown {
  if (marks.length === 0 || typeof root !== 'object' || root === null) return root;
  const copied = new Set<object>();
  const copy = (value: object): Record<string, unknown> => {
    const made = (Array.isArray(value) ? [...(value as unknown[])] : { ...value }) as Record<string, unknown>;
    copied.add(made);
    return made;
  };
  const top = copy(root);
  for (const [path, mark] of marks) {
    const names = path.split('.');
    let node = top;
    for (const name of names.slice(0, -1)) {
      const child = node[name] as object;
      node = copied.has(child) ? (child as Record<string, unknown>) : (node[name] = copy(child));
    }
    node[names[names.length - 1]!] = mark;
  }
  return top;
}

/**
 * Made-up values for a template. 'found': long random values found in the rendered text without
 * doubt. 'check': another set, of other lengths and with characters that need escaping, whose
 * render must equal the first one filled with them (player-pages.ts checks every new template).
 */
export type TemplateVariant = 'found' | 'check';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
function randomLetters(count: number): string {
  return Array.from({ length: count }, () => LETTERS[randomInt(LETTERS.length)]).join('');
}

/** `count` distinct random integers in [low, high), ascending. */
function ascendingIntegers(count: number, low: number, high: number): number[] {
  const values = new Set<number>();
  while (values.size < count) values.add(low + randomInt(high - low));
  return [...values].sort((a, b) => a - b);
}

function madeUpValues(kind: Kind, variant: TemplateVariant, originals: (string | number)[]): (string | number)[] {
  const isFound = variant === 'found';
  switch (kind) {
    case 'id':
    case 'count':
      return isFound ? ascendingIntegers(originals.length, 1e11, 1e12) : ascendingIntegers(originals.length, 1e6, 1e7);
    case 'amount': {
      // Order by size within each sign; the sign itself is shape.
      const units = isFound ? ascendingIntegers(originals.length, 1e8, 1e9) : ascendingIntegers(originals.length, 1e3, 1e4);
      const bySize = originals.map((value, index) => ({ index, size: amountToMinor(String(value)) }));
      bySize.sort((a, b) => ((a.size < 0n ? -a.size : a.size) > (b.size < 0n ? -b.size : b.size) ? 1 : -1));
      const made: string[] = [];
      bySize.forEach(({ index, size }, place) => {
        const cents = String(10 + randomInt(90));
        made[index] = `${size < 0n ? '-' : ''}${units[place]}.${cents}`;
      });
      return made;
    }
    case 'text':
      return originals.map((value) => {
        const local = isFound ? randomLetters(12) : `o'r&<"${randomLetters(5)}>`;
        return String(value).includes('@') ? `${local}@${randomLetters(isFound ? 8 : 3)}.test` : local;
      });
    case 'time': {
      const [from, to] = isFound ? [Date.UTC(1990, 0), Date.UTC(2000, 0)] : [Date.UTC(2030, 0), Date.UTC(2040, 0)];
      return ascendingIntegers(originals.length, from, to).map((ms) => new Date(ms).toISOString());
    }
  }
}

/** The view with made-up free values of the same shape (shapeOf of both is the same). */
export function templateOf(view: PlayerView, fields: readonly FreeField[], variant: TemplateVariant): PlayerView {
  const copy = structuredClone(view);
  const leaves = leavesOf(copy, fields);
  const replacement = new Map<string, string | number>();
  for (const [group, { kind, values }] of distinctByGroup(leaves)) {
    const made = madeUpValues(kind, variant, values);
    values.forEach((value, index) => replacement.set(`${group}:${value}`, made[index]!));
  }
  for (const leaf of leaves) leaf.holder[leaf.name] = replacement.get(`${leaf.group}:${leaf.value}`)!;
  return copy;
}

/**
 * Every way a page shows the view's free values, in an order fixed by the shape: the fill puts the
 * player's form where the template's form was found. A form made only of shape values (a zero
 * total) is not one: it reads the same for every player of the shape.
 */
export function formsOf(view: PlayerView, fields: readonly FreeField[]): string[] {
  const leaves = leavesOf(view, fields);
  const forms: string[] = [];
  for (const leaf of leaves) {
    const text = String(leaf.value);
    if (leaf.kind === 'id' || leaf.kind === 'count') forms.push(text, groupThousands(text));
    else if (leaf.kind === 'amount') forms.push(text, formatMoney({ amount: text, currency: leaf.currency ?? '' }));
    else forms.push(text);
  }
  // The header's total (spec §9) is made of three balances: a form of its own when one of them is free.
  const counted = BALANCE_NAMES.slice(0, 3).map((name) => `balances.${name}.amount`);
  if (fields.some((field) => field.source === 'account' && counted.includes(field.path))) {
    forms.push(formatMoney(totalBalance(view.account.balances)));
  }
  return forms;
}
