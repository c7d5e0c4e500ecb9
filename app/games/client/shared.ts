/**
 * What every in-house game component of the game client shares (issue 5): the round and seed
 * views of the product API, the clear error text for an API error, request ids, and the message
 * that tells the framing game page a balance moved.
 */
import type { GameMode, GameSettings, PlayResult, RoundView, SeedsView } from '#common/contract';
import { isApiError } from '#common/errors';
import { formatMoney, type Money } from '#common/money';
import type { browserApi } from '~/api/client';

export type Api = ReturnType<typeof browserApi>;
export type Translate = (key: string, params?: Record<string, string | number>) => string;
export type { GameMode, PlayResult, RoundView, SeedsView };

/** games.play for the single-request engines: the bet as an object; undefined when refused (the error is shown). */
export type Play = (bet: Record<string, unknown>, options?: { freespinPackId?: string }) => Promise<PlayResult | undefined>;

/**
 * What the game client gives each game component. Single-request games use `play`; stateful and
 * live games call the API themselves and report through `onBalance`, `onRoundsChanged` and `onError`.
 */
export interface GameComponentProps {
  sysname: string;
  mode: GameMode;
  engine: string;
  minBet: string;
  maxBet: string;
  /** The site's rules for in-house play as the page loaded them (games.getSettings); null when they could not be read. */
  settings: GameSettings | null;
  api: Api;
  play: Play;
  /** A round moved money: show this balance (null keeps the shown one) and tell the framing page. */
  /** The balance played on after a request; `bonus` when the answer carries the casino bonus balance (issue 13). */
  onBalance: (balance: Money | null, bonus?: Money) => void;
  /** A round was played or settled: refresh the seeds and the recall list. */
  onRoundsChanged: () => void;
  /** Show a clear message for a refused call; null clears it. */
  onError: (error: unknown) => void;
}

/** A clear message for an API error: the wrong field, the error type, or a generic text. */
export function errorText(t: Translate, error: unknown): string {
  if (!isApiError(error)) return t('gamePlay.error.network');
  const field = typeof error.errorData?.field === 'string' ? error.errorData.field : undefined;
  // The wagered bonus's rules (issue 13): its maximum stake, and bonus money frozen while real money remains.
  if (error.type === 'InvalidParameterException' && error.errorData?.errorType === 'bonusMaxStake')
    return t('gamePlay.error.bonusMaxStake', {
      amount: formatMoney({ amount: String(error.errorData.max_stake ?? ''), currency: String(error.errorData.currency ?? '') }),
    });
  if (error.type === 'InvalidParameterException' && error.errorData?.errorType === 'bonusFrozen')
    return t('gamePlay.error.bonusFrozen');
  if (error.type === 'InvalidParameterException' && field && ['stake', 'bet', 'client_seed', 'mode', 'sysname'].includes(field))
    return t(`gamePlay.error.${field}`);
  if (error.type === 'UserNeedDepositException') return t('gamePlay.error.deposit');
  if (error.type === 'AuthorizationException') return t('gamePlay.error.signIn');
  if (error.type === 'AccessDeniedException') return t('gamePlay.error.excluded');
  // The site's minimum spin duration (jurisdiction settings): say how long to wait.
  if (error.type === 'TooManyRequestsException' && error.errorData?.reason === 'min_spin_duration') {
    return t('gamePlay.error.minSpin', { seconds: Math.max(1, Number(error.errorData.retry_after) || 1) });
  }
  const key = `error.${error.type}`;
  const text = t(key);
  return text === key ? t('error.UnknownErrorException') : text;
}

export function newRequestId(): string {
  const random =
    typeof crypto !== 'undefined' && 'randomUUID' in crypto
      ? crypto.randomUUID()
      : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  return `r-${random}`.slice(0, 64);
}

/** Tells the framing game page that a balance moved, so its header can refresh. */
export function notifyParent(): void {
  if (typeof window !== 'undefined' && window.parent !== window)
    window.parent.postMessage({ type: 'game-balance-changed' }, window.location.origin);
}

/** A reel symbol's name in the page's language ("3 × Campana", issue 15); an unknown one as the engine wrote it. */
export function symbolName(t: Translate, symbol: string): string {
  const key = `gamePlay.symbol.${symbol}`;
  const text = t(key);
  return text === key ? symbol : text;
}
