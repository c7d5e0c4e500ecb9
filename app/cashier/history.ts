/**
 * Cashier history rules (spec §4, §9): four tabs of 4 rows a page, lists that append and
 * de-duplicate by id, a tab switch that clears and reloads; recent transactions are payments
 * and bonuses merged, newest first, 4 rows.
 */
import type { HistoryItem, HistoryTab } from '#common/cashier-contract';
import { formatDate, formatTime } from '~/format';

export const HISTORY_TABS: readonly HistoryTab[] = ['deposit', 'withdrawal', 'bonuses', 'cashbacks'];
export const HISTORY_PAGE_SIZE = 4;
export const RECENT_TRANSACTIONS_COUNT = 4;
/** The tabs whose rows are merged into the wallet's recent transactions. */
export const RECENT_TRANSACTION_TABS: readonly HistoryTab[] = ['deposit', 'withdrawal', 'bonuses'];

/** The tab of ?tab=, deposit when absent or unknown. */
export function parseHistoryTab(value: string | null | undefined): HistoryTab {
  return HISTORY_TABS.find((tab) => tab === value) ?? 'deposit';
}

/** Appends a loaded page, keeping the first copy of every id. */
export function appendUnique<T extends { id: string }>(current: readonly T[], page: readonly T[]): T[] {
  const seen = new Set(current.map((item) => item.id));
  const added = page.filter((item) => {
    if (seen.has(item.id)) return false;
    seen.add(item.id);
    return true;
  });
  return [...current, ...added];
}

/** Whether "Load more" has anything left to load. */
export function hasMore(loaded: number, total: number): boolean {
  return loaded < total;
}

/** Newest first; ties by id so the order is stable. */
function newestFirst(a: HistoryItem, b: HistoryItem): number {
  const byTime = Date.parse(b.created_at) - Date.parse(a.created_at);
  return byTime !== 0 ? byTime : b.id.localeCompare(a.id);
}

/** Recent transactions (spec §9): the lists merged, de-duplicated, newest first, the first 4. */
export function recentTransactions(
  lists: ReadonlyArray<readonly HistoryItem[]>,
  count = RECENT_TRANSACTIONS_COUNT,
): HistoryItem[] {
  const merged = lists.reduce<HistoryItem[]>((all, list) => appendUnique(all, list), []);
  return merged.sort(newestFirst).slice(0, count);
}

/**
 * The ledger kinds of bonus and cashback rows that have a label in the translations
 * (cashier.history.kind.{kind}); the bonus engine's steps and the cashback payout, and the kinds
 * earlier versions wrote for offer and promo-code bonuses (issue 15: the ledger is append-only,
 * so their rows stay in a player's history for good).
 */
export const LABELLED_KINDS: ReadonlySet<string> = new Set([
  'bonus_grant',
  'bonus_deactivate',
  'bonus_convert',
  'bonus_forfeited',
  'bonus_removed',
  'bonus_expired',
  'bonus_freespin_win',
  'bonus_deposit_offer',
  'bonus_promo_code',
  'cashback_payout',
  'cashback_bonus',
]);

/** The label of a bonus or cashback row whose kind has none of its own (cashier.history.kind.other_{tab}). */
export const OTHER_KIND_TABS: ReadonlySet<HistoryTab> = new Set(['bonuses', 'cashbacks']);

/**
 * The translation key of a bonus or cashback row's label; none for a payment (it names its
 * method). The row's description is the ledger's English reason, which may carry a raw amount
 * (an offer bonus of an earlier version read "Welcome bonus (50.00)"; issue 15): it is never the
 * label. A kind without a label of its own (one added to the ledger later) gets its tab's label.
 */
export function historyKindKey(item: Pick<HistoryItem, 'kind' | 'type'>): string | undefined {
  if (!item.kind) return undefined;
  if (LABELLED_KINDS.has(item.kind)) return `cashier.history.kind.${item.kind}`;
  return OTHER_KIND_TABS.has(item.type) ? `cashier.history.kind.other_${item.type}` : undefined;
}

/** Payments have a receipt (cashier.getdepositinfo); bonus and cashback movements do not. */
export function hasReceipt(item: Pick<HistoryItem, 'type'>): boolean {
  return item.type === 'deposit' || item.type === 'withdrawal';
}

/** A row's time as dd.mm.yyyy hh:mm (spec §9), in the viewer's time zone. */
export function historyStamp(iso: string): string {
  return `${formatDate(iso)} ${formatTime(iso)}`;
}
