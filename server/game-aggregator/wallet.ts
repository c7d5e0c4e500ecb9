/**
 * The aggregator's side of the seamless wallet (docs/provider-wallet.md), as a real aggregator
 * behaves on the network:
 * - every request is signed over its raw body and sent with a timeout;
 * - a timeout, a lost connection or INTERNAL_ERROR is retried with the very same body (same
 *   transaction id), so the operator's idempotency is what keeps money from moving twice;
 * - a share of bets and wins (duplicateRate) is sent a second time on purpose after its answer,
 *   and the replay must bring the first answer back;
 * - a bet whose fate stays unknown after the retries is rolled back by the caller (rounds.ts).
 * Only the outcome reaches the caller: OK with the balance, a refusal with its code, or
 * `unavailable` when the operator could not be reached.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { providerClient, type ProviderAction, type ProviderReply } from './wallet-protocol';

export interface WalletOptions {
  /** The operator's provider name (`/provider-api/{name}/…`) and secret. */
  provider: string;
  secret: string;
  timeoutMs: number;
  /** Attempts per request (the first included) before the fate is unknown. */
  attempts: number;
  /** Share of bets and wins sent twice on purpose (0 … 1). */
  duplicateRate: number;
  /** Pause before a retry, doubled each time. */
  retryDelayMs: number;
  logger?: Pick<Logger, 'warn' | 'info'>;
  random?: () => number;
}

export type WalletOutcome =
  | { kind: 'ok'; balanceMinor: bigint; body: ProviderReply['body'] }
  | { kind: 'refused'; code: string; message: string; balanceMinor?: bigint }
  | { kind: 'unavailable' };

/** What a counter of the wallet traffic saw (the tests and bench read it). */
export interface WalletStats {
  requests: number;
  retries: number;
  duplicates: number;
  duplicateMismatches: number;
  rollbacks: number;
}

export function newTransactionId(prefix: string): string {
  return `${prefix}-${randomBytes(9).toString('base64url')}`;
}

const amountOf = (value: unknown): bigint | undefined =>
  typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value)) ? BigInt(value) : undefined;

export function createWalletClient(walletUrl: string, options: WalletOptions) {
  const random = options.random ?? Math.random;
  const stats: WalletStats = { requests: 0, retries: 0, duplicates: 0, duplicateMismatches: 0, rollbacks: 0 };
  const base = walletUrl.replace(/\/$/, '');
  const client = providerClient(
    (path, init) => {
      stats.requests++;
      return fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(options.timeoutMs) });
    },
    { name: options.provider, secret: options.secret },
  );

  /** One request until it is answered: retried with the same body on a timeout, a lost connection or our INTERNAL_ERROR. */
  async function send(action: ProviderAction, body: Record<string, unknown>): Promise<ProviderReply | undefined> {
    let delay = options.retryDelayMs;
    for (let attempt = 1; attempt <= options.attempts; attempt++) {
      if (attempt > 1) {
        stats.retries++;
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay *= 2;
      }
      try {
        const reply = await client.call(action, body);
        if (reply.body.code !== 'INTERNAL_ERROR') return reply;
      } catch (error) {
        options.logger?.warn({ action, attempt, err: (error as Error).message }, 'wallet request not answered');
      }
    }
    return undefined;
  }

  function outcomeOf(reply: ProviderReply | undefined): WalletOutcome {
    if (!reply) return { kind: 'unavailable' };
    const balanceMinor = amountOf(reply.body.balance);
    if (reply.body.status === 'OK' && balanceMinor !== undefined) return { kind: 'ok', balanceMinor, body: reply.body };
    return {
      kind: 'refused',
      code: reply.body.code ?? 'UNKNOWN',
      message: reply.body.message ?? '',
      ...(balanceMinor === undefined ? {} : { balanceMinor }),
    };
  }

  /** Sends a money request, and now and then its twin: the operator must answer the twin as the first. */
  async function moneyRequest(action: 'bet' | 'win' | 'rollback', body: Record<string, unknown>): Promise<WalletOutcome> {
    const outcome = outcomeOf(await send(action, body));
    if (outcome.kind === 'ok' && random() < options.duplicateRate) {
      stats.duplicates++;
      const twin = outcomeOf(await send(action, body));
      if (twin.kind !== 'ok' || twin.balanceMinor !== outcome.balanceMinor) {
        stats.duplicateMismatches++;
        options.logger?.warn({ action, transaction: body.transaction_id }, 'the operator answered a duplicate differently');
      }
    }
    return outcome;
  }

  return {
    stats,
    authenticate: async (token: string) => outcomeOf(await send('authenticate', { token })),
    balance: async (token: string, playerId: string) => outcomeOf(await send('balance', { token, player_id: playerId })),

    /** A bet; `unavailable` means its fate is unknown: the caller rolls it back by reference. */
    bet(request: {
      token: string;
      playerId: string;
      roundId: string;
      transactionId: string;
      amountMinor: bigint;
      currency: string;
    }) {
      const body = {
        token: request.token,
        player_id: request.playerId,
        transaction_id: request.transactionId,
        round_id: request.roundId,
        amount: Number(request.amountMinor),
        currency: request.currency,
      };
      return moneyRequest('bet', body);
    },

    win: (request: {
      token: string;
      playerId: string;
      roundId: string;
      transactionId: string;
      amountMinor: bigint;
      currency: string;
    }) =>
      moneyRequest('win', {
        token: request.token,
        player_id: request.playerId,
        transaction_id: request.transactionId,
        round_id: request.roundId,
        amount: Number(request.amountMinor),
        currency: request.currency,
      }),

    rollback(request: {
      token: string;
      playerId: string;
      roundId: string;
      transactionId: string;
      referenceTransactionId: string;
      amountMinor: bigint;
      currency: string;
    }): Promise<WalletOutcome> {
      stats.rollbacks++;
      return moneyRequest('rollback', {
        token: request.token,
        player_id: request.playerId,
        transaction_id: request.transactionId,
        round_id: request.roundId,
        reference_transaction_id: request.referenceTransactionId,
        amount: Number(request.amountMinor),
        currency: request.currency,
      });
    },

    roundEnd: async (request: { token: string; playerId: string; roundId: string }) =>
      outcomeOf(await send('round-end', { token: request.token, player_id: request.playerId, round_id: request.roundId })),
  };
}

export type WalletClient = ReturnType<typeof createWalletClient>;
