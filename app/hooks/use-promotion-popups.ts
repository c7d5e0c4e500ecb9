/**
 * After sign-in (spec §4 "after login the unseen-cashback popup and the campaign popup are
 * queued"; §6 campaign popups only for signed-in players): once per sign-in, whichever way it
 * happened (form, second factor, social, messenger: each marks it, app/sign-in-events.ts), the
 * unseen-cashback popup when its rule holds, then the campaign popup popups.get answers, in queue
 * mode. Never on the routes §2 excludes.
 */
import { useEffect } from 'react';
import type { CashbackView } from '#common/contract';
import { browserApi } from '~/api/client';
import { useDialogs, type DialogApi } from '~/dialogs/dialog-context';
import { useI18n } from '~/i18n';
import { useCurrentRoute } from '~/route-info';
import { useRootData } from '~/site-data';
import { takeSignedInMark } from '~/sign-in-events';

/** Spec §4: the cashback popup's last-seen id, in the player's storage. */
export const SEEN_CASHBACK_KEY = 'already_seen_cashback_id';
/** Spec §2: campaign popups are not opened on these routes (the game page, the deposit pages). */
export const POPUP_EXCLUDED_ROUTES = new Set([
  'game-sysname',
  'game-index-item',
  'cashier-index-deposit',
  'cashier-index-deposit-index-sysname',
]);

/**
 * Spec §4 cashback popup rule: the newest cashback (paid_out or active, by end date, 1 fetched)
 * is active with an id other than the last seen, or paid out with no receiving_expired_at.
 */
export function isUnseenCashback(
  newest: Pick<CashbackView, 'id' | 'status' | 'receiving_expired_at'> | undefined,
  seenId: string | null,
): boolean {
  if (!newest) return false;
  if (newest.status === 'active') return String(newest.id) !== seenId;
  return newest.status === 'paid_out' && !newest.receiving_expired_at;
}

export function usePromotionPopups() {
  const root = useRootData();
  const { name } = useCurrentRoute();
  const { open } = useDialogs();
  const { locale } = useI18n();
  const uid = root?.account?.uid ?? 0;

  useEffect(() => {
    // On an excluded route the mark waits for the next page that may show them.
    if (uid <= 0 || POPUP_EXCLUDED_ROUTES.has(name) || !takeSignedInMark()) return;
    void queueAfterSignIn(browserApi(locale), open);
    // Once per sign-in: the mark is taken by the first page that may show them.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [uid, name]);
}

async function queueAfterSignIn(api: ReturnType<typeof browserApi>, open: DialogApi['open']): Promise<void> {
  await queueUnseenCashback(api, open).catch(() => undefined);
  const popup = await api.call('popups.get', { event: 'login' }).catch(() => null);
  if (popup) open('campaign', { queue: true, componentProps: { popup } });
}

async function queueUnseenCashback(api: ReturnType<typeof browserApi>, open: DialogApi['open']): Promise<void> {
  // Spec §4 "shown only when a stored value exists": the storage must have answered; a failed read shows nothing.
  const stored = await api.call('storage.get', { keys: SEEN_CASHBACK_KEY });
  const page = await api.call('cashbacks.get', {
    offset: 0,
    count: 1,
    sort: 'end_date',
    order: 'desc',
    statuses: 'paid_out,active',
  });
  const newest = page.items[0];
  if (!newest || !isUnseenCashback(newest, stored[SEEN_CASHBACK_KEY] ?? null)) return;
  const { closed } = open('unseenCashback', { queue: true, componentProps: { cashback: newest } });
  await closed.then(() => api.call('storage.set', { key: SEEN_CASHBACK_KEY, value: String(newest.id) })).catch(() => undefined);
}
