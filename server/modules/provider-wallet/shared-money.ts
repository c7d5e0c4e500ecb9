/**
 * Providers' bets and wins, several players' at once, in one statement (issue 12: ≥ 500 provider
 * rounds/s on PostgreSQL; a bet or win was six round trips, and the ledger call's cost is mostly
 * fixed). Requests that arrive while earlier ones are being written wait in the call-sharing
 * queue (db/call-sharing.ts, one player's requests never in one call); the database function
 * provider_money (migration 0026) checks each request's round under its lock, takes its
 * transaction id, moves the money of all of them in one ledger_write_batch call (a group each, all
 * or nothing on its own) and records each answer with the balance after it: the same rows,
 * transfers, keys and audit entries as the transactional path (service.ts applyInTransaction).
 * Only for money no hook has to see (round-intake canShareMoney): a hook runs in JavaScript
 * inside the transaction. A call that fails as a whole wrote nothing, and each of its requests
 * plays the transactional path, which answers its own error.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { createCallSharing, type CallSharingOptions } from '../../db/call-sharing';
import { parsedJson } from '../../db/json-value';
import { pgArray } from '../../db/pg-array';
import { withRetry } from '../../db/retry';
import { payoutTransfer, stakeTransfer, type RoundMoney } from '../round-intake';
import type { GroupTransferResult, LedgerCall, TransferInput, WalletService } from '../wallet';
import type { ProviderErrorCode, ProviderOkAnswer } from './protocol';

export interface ProviderMoneyRequest {
  kind: 'bet' | 'win';
  provider: string;
  txId: string;
  roundId: string;
  sessionId: number;
  amountMinor: bigint;
  requestHash: string;
  round: RoundMoney;
  /** The answer without its balance: the function adds the balance it read and records it. */
  answer: ProviderOkAnswer;
}

export type ProviderMoneyOutcome =
  | { status: 'done'; balanceMinor: bigint }
  /** The transaction id was taken before (or by a twin meanwhile), or its key applied before: its row decides. */
  | { status: 'seen' }
  /** Nothing was written; roundCurrency names the round's currency for CURRENCY_MISMATCH. */
  | { status: 'refused'; code: ProviderErrorCode; roundCurrency?: string }
  | { status: 'insufficient' }
  /** The call failed as a whole (it wrote nothing): play the transactional path. */
  | { status: 'alone' };

interface FunctionAnswer {
  statuses: ('ok' | 'seen' | 'refused' | 'ledger')[];
  codes: (ProviderErrorCode | null)[];
  currencies: (string | null)[];
  balances: (string | null)[];
  /** The items (1-based) whose groups the ledger call carried, in its order. */
  kept: number[];
  ledger: unknown;
}

/** Two lanes, as the wallet's group commit: one call in the database while the next gathers. */
const DEFAULT_OPTIONS: CallSharingOptions = { lanes: 2, maxItems: 32 };

/** The transfer a request moves: the stake of a bet, the payout of a win; nothing for an amount of zero. */
function transfersOf(request: ProviderMoneyRequest): TransferInput[] {
  if (request.amountMinor === 0n) return [];
  const movement = { amountMinor: request.amountMinor, idempotencyKey: `provider:${request.provider}:tx:${request.txId}` };
  return [request.kind === 'bet' ? stakeTransfer(request.round, movement) : payoutTransfer(request.round, movement)];
}

function outcomeOf(answer: FunctionAnswer, item: number, moved: GroupTransferResult | undefined): ProviderMoneyOutcome {
  switch (answer.statuses[item]) {
    case 'ok':
      return { status: 'done', balanceMinor: BigInt(answer.balances[item] ?? '0') };
    case 'refused':
      return {
        status: 'refused',
        code: answer.codes[item] ?? 'INVALID_REQUEST',
        roundCurrency: answer.currencies[item] ?? undefined,
      };
    case 'ledger':
      // Refused for funds, or its key was bound to another request or applied before: the row decides those.
      return moved?.status === 'insufficient' ? { status: 'insufficient' } : { status: 'seen' };
    default:
      return { status: 'seen' };
  }
}

export function createSharedProviderMoney(db: Database, wallet: WalletService, options: Partial<CallSharingOptions> = {}) {
  // Calls that failed as a whole (their requests then played the transactional path): none is expected.
  let failedCalls = 0;

  async function call(requests: readonly ProviderMoneyRequest[], ledger: LedgerCall): Promise<FunctionAnswer> {
    const column = <T>(pick: (request: ProviderMoneyRequest) => T) => requests.map(pick);
    const result = await db.execute(sql`
      SELECT provider_money(
        ${pgArray(column((r) => r.kind))}::text[], ${pgArray(column((r) => r.provider))}::text[],
        ${pgArray(column((r) => r.txId))}::text[], ${pgArray(column((r) => r.roundId))}::text[],
        ${pgArray(column((r) => r.round.siteId))}::text[], ${pgArray(column((r) => r.round.userId))}::bigint[],
        ${pgArray(column((r) => r.sessionId))}::bigint[], ${pgArray(column((r) => r.round.currency))}::text[],
        ${pgArray(column((r) => r.amountMinor))}::bigint[], ${pgArray(column((r) => r.requestHash))}::text[],
        ${pgArray(column((r) => JSON.stringify(r.answer)))}::jsonb[], ${ledger.arguments}) AS answer`);
    const [row] = (result as unknown as { rows: { answer: unknown }[] }).rows;
    if (!row) throw new Error('provider_money answered nothing');
    return parsedJson<FunctionAnswer>(row.answer);
  }

  async function playTogether(requests: readonly ProviderMoneyRequest[]): Promise<ProviderMoneyOutcome[]> {
    const ledger = await wallet.planLedgerCall(requests.map(transfersOf));
    const answer = await withRetry(() => call(requests, ledger));
    const kept = answer.kept.map((item) => item - 1);
    const moved = kept.length > 0 ? wallet.ledgerCallResults(ledger, answer.ledger, kept) : [];
    const movedOf = new Map(kept.map((item, index) => [item, moved[index]]));
    return requests.map((_, item) => outcomeOf(answer, item, movedOf.get(item)));
  }

  const sharing = createCallSharing<ProviderMoneyRequest, ProviderMoneyOutcome>(
    async (requests) => {
      try {
        return await playTogether(requests);
      } catch {
        failedCalls++;
        return requests.map(() => ({ status: 'alone' }) as const);
      }
    },
    (request) => `${request.round.siteId}|${request.round.userId}`,
    { ...DEFAULT_OPTIONS, ...options },
  );

  return {
    apply: (request: ProviderMoneyRequest): Promise<ProviderMoneyOutcome> => sharing.submit(request),
    /** Calls made, the requests they carried, and the calls that failed as a whole. */
    stats: () => ({ ...sharing.stats(), failedCalls }),
    hold: () => sharing.hold(),
  };
}
