/**
 * The pure core of a transfer: which accounts it names, and the checks every transfer passes
 * before it touches the database (architecture §5: postings sum to zero; amounts are integers).
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '#common/canonical-json';
import type { HouseAccountType, PlayerAccountType } from './tables';

/** House accounts are split into this many sub-accounts, picked by player (architecture §5). */
export const HOUSE_SHARDS = 16;

export type AccountRef =
  { owner: 'player'; userId: number; type: PlayerAccountType } | { owner: 'house'; type: HouseAccountType; shardKey?: number };

export interface Leg {
  account: AccountRef;
  /** Signed minor units: positive credits the account, negative debits it. */
  amountMinor: bigint;
}

export class InvalidTransferError extends Error {}

export const player = (userId: number, type: PlayerAccountType): AccountRef => ({ owner: 'player', userId, type });
export const house = (type: HouseAccountType, shardKey?: number): AccountRef => ({ owner: 'house', type, shardKey });

/** A two-legged movement of amountMinor (> 0) from one account to another. */
export function move(from: AccountRef, to: AccountRef, amountMinor: bigint): Leg[] {
  return [
    { account: from, amountMinor: -amountMinor },
    { account: to, amountMinor },
  ];
}

export function houseShard(key: number): number {
  return Math.abs(Math.trunc(key)) % HOUSE_SHARDS;
}

/** Throws unless the legs are whole non-zero amounts that sum to zero and the headline is positive. */
export function checkLegs(legs: Leg[], headlineMinor: bigint): void {
  if (typeof headlineMinor !== 'bigint' || headlineMinor <= 0n)
    throw new InvalidTransferError('the amount must be a positive integer of minor units');
  if (legs.length < 2) throw new InvalidTransferError('a transfer needs at least two postings');
  let sum = 0n;
  for (const leg of legs) {
    if (typeof leg.amountMinor !== 'bigint' || leg.amountMinor === 0n)
      throw new InvalidTransferError('a posting must be a non-zero integer of minor units');
    if (leg.account.owner === 'player' && !(Number.isSafeInteger(leg.account.userId) && leg.account.userId > 0))
      throw new InvalidTransferError('a player posting needs a player');
    sum += leg.amountMinor;
  }
  if (sum !== 0n) throw new InvalidTransferError(`postings sum to ${sum}, not zero`);
}

/** What an idempotency key is bound to: the movement itself, not who asked or why. */
export function requestHash(input: {
  siteId: string;
  userId?: number;
  kind: string;
  currency: string;
  amountMinor: bigint;
  legs: Leg[];
}): string {
  const { siteId, userId, kind, currency, amountMinor, legs } = input;
  return createHash('sha256')
    .update(canonicalJson({ siteId, userId: userId ?? null, kind, currency, amountMinor, legs }))
    .digest('hex');
}
