/**
 * The seamless-wallet wire format (docs/provider-wallet.md): the provider's requests, checked
 * with zod, and our answers in the provider's envelope: `{"status":"OK",…}` or
 * `{"status":"ERROR","code":…,"message":…}` (with the balance where it helps the provider).
 * Amounts are integers of minor units, as JSON numbers or strings of digits.
 */
import { z } from 'zod';

export const PROVIDER_ACTIONS = ['authenticate', 'balance', 'bet', 'win', 'rollback', 'round-end'] as const;
export type ProviderAction = (typeof PROVIDER_ACTIONS)[number];

/** Error codes of the provider envelope, with the HTTP status each is answered with. */
export const PROVIDER_ERROR_STATUS = {
  /** Malformed JSON, a missing field or a wrong type (`field` names it). */
  INVALID_REQUEST: 400,
  /** Missing or wrong X-Signature: nothing was read or moved. */
  INVALID_SIGNATURE: 401,
  UNKNOWN_PROVIDER: 404,
  UNKNOWN_ACTION: 404,
  SESSION_NOT_FOUND: 200,
  /** The session ended: no new bets (wins and rollbacks are still taken). */
  SESSION_EXPIRED: 200,
  PLAYER_MISMATCH: 200,
  CURRENCY_MISMATCH: 200,
  /** The bet is more than the balance; `balance` is the real balance. */
  INSUFFICIENT_FUNDS: 200,
  /** Self-excluded, timed out, banned or deleted: no bets. */
  PLAYER_BLOCKED: 200,
  /** The transaction id was used for another request (other amount, round, player or kind). */
  DUPLICATE_TRANSACTION: 200,
  /** A bet whose id a rollback named before it arrived: refused for good. */
  TRANSACTION_ROLLED_BACK: 200,
  /** A win or round end in a round this player has no bet in. */
  ROUND_NOT_FOUND: 200,
  /** A bet in a round the provider ended. */
  ROUND_ENDED: 200,
  /** A rollback of a win or of a rollback: wins are final. */
  ROLLBACK_NOT_ALLOWED: 200,
  /** A rollback whose player, round or amount is not the bet's. */
  TRANSACTION_MISMATCH: 200,
  /** Our fault: nothing was recorded; send the same request again. */
  INTERNAL_ERROR: 500,
} as const;
export type ProviderErrorCode = keyof typeof PROVIDER_ERROR_STATUS;

export interface ProviderErrorAnswer {
  status: 'ERROR';
  code: ProviderErrorCode;
  message: string;
  field?: string;
  balance?: number | string;
  currency?: string;
}

export type ProviderOkAnswer = { status: 'OK' } & Record<string, unknown>;
export type ProviderAnswer = ProviderOkAnswer | ProviderErrorAnswer;

/** Largest amount accepted: far above any stake, well inside bigint columns. */
const MAX_AMOUNT_MINOR = 10n ** 15n;
const PRINTABLE_ID = /^[\x21-\x7e]{1,100}$/;

const id = z.string().regex(PRINTABLE_ID, 'must be 1–100 printable characters without spaces');
const token = z.string().min(16).max(200);
const playerId = z
  .union([z.string().regex(/^[1-9]\d{0,15}$/), z.number().int().positive().max(Number.MAX_SAFE_INTEGER)])
  .transform((value) => Number(value));
const amount = z
  .union([z.string().regex(/^(0|[1-9]\d{0,15})$/), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)])
  .transform((value) => BigInt(value))
  .refine((value) => value <= MAX_AMOUNT_MINOR, 'too large');
const currency = z.string().regex(/^[A-Z]{3}$/);

export const requestSchemas = {
  authenticate: z.object({ token }),
  balance: z.object({ token, player_id: playerId.optional() }),
  bet: z.object({ token, player_id: playerId, transaction_id: id, round_id: id, amount, currency }),
  win: z.object({ token, player_id: playerId, transaction_id: id, round_id: id, amount, currency }),
  rollback: z.object({
    token,
    player_id: playerId,
    transaction_id: id,
    round_id: id,
    reference_transaction_id: id,
    amount: amount.optional(),
    currency,
  }),
  'round-end': z.object({ token, player_id: playerId, round_id: id }),
} satisfies Record<ProviderAction, z.ZodType>;

export type ProviderRequest<A extends ProviderAction> = z.infer<(typeof requestSchemas)[A]>;

/** JSON numbers up to 2^53 stay numbers; larger amounts go as strings so nothing is rounded. */
export function amountJson(valueMinor: bigint): number | string {
  return valueMinor <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(valueMinor) : valueMinor.toString();
}

/** A refusal: nothing was recorded or moved. */
export class ProviderRefusal extends Error {
  constructor(
    readonly code: ProviderErrorCode,
    message: string,
    readonly extra: { field?: string; balanceOf?: { siteId: string; userId: number; currency: string } } = {},
  ) {
    super(message);
  }
}
