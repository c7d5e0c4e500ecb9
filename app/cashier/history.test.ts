import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { HistoryItem } from '#common/cashier-contract';
import {
  HISTORY_PAGE_SIZE,
  LABELLED_KINDS,
  OTHER_KIND_TABS,
  RECENT_TRANSACTIONS_COUNT,
  appendUnique,
  hasMore,
  hasReceipt,
  historyKindKey,
  historyStamp,
  parseHistoryTab,
  recentTransactions,
} from './history';
import { createTranslate } from '~/i18n';

/** The shipped translations of a locale (content/shared). */
const translations = (locale: 'en' | 'it') =>
  JSON.parse(readFileSync(new URL(`../../content/shared/${locale}/translations/common.json`, import.meta.url), 'utf8')) as Record<
    string,
    string
  >;

const item = (id: string, minute: number, type: HistoryItem['type'] = 'deposit'): HistoryItem => ({
  id,
  type,
  method: type === 'bonuses' ? null : 'card',
  amount: { amount: '10.00', currency: 'EUR' },
  status: 'success',
  created_at: new Date(Date.UTC(2026, 0, 1, 12, minute)).toISOString(),
  description: '',
  kind: type === 'bonuses' ? 'bonus_grant' : null,
});

describe('history tabs (spec §2: the query parameter tab picks deposit, withdrawal, bonuses or cashbacks)', () => {
  it('reads the tab from the query, deposit by default', () => {
    expect(parseHistoryTab('withdrawal')).toBe('withdrawal');
    expect(parseHistoryTab('cashbacks')).toBe('cashbacks');
    expect(parseHistoryTab('other')).toBe('deposit');
    expect(parseHistoryTab(null)).toBe('deposit');
  });
  it('loads 4 rows a page (spec §9)', () => {
    expect(HISTORY_PAGE_SIZE).toBe(4);
  });
});

describe('history lists append and de-duplicate by id (spec §4)', () => {
  it('appends a page and drops ids already shown, and duplicates inside the page', () => {
    const first = [item('a', 4), item('b', 3)];
    const next = [item('b', 3), item('c', 2), item('c', 2), item('d', 1)];
    expect(appendUnique(first, next).map((row) => row.id)).toEqual(['a', 'b', 'c', 'd']);
  });
  it('offers more while fewer rows are loaded than the total', () => {
    expect(hasMore(4, 5)).toBe(true);
    expect(hasMore(5, 5)).toBe(false);
  });
});

describe('recent transactions (spec §9: 4 rows, payments and bonuses merged, newest first)', () => {
  it('merges the lists, newest first, and keeps 4', () => {
    const deposits = [item('d1', 50), item('d2', 10)];
    const withdrawals = [item('w1', 40, 'withdrawal')];
    const bonuses = [item('b1', 45, 'bonuses'), item('b2', 5, 'bonuses'), item('b3', 30, 'bonuses')];
    const recent = recentTransactions([deposits, withdrawals, bonuses]);
    expect(RECENT_TRANSACTIONS_COUNT).toBe(4);
    expect(recent.map((row) => row.id)).toEqual(['d1', 'b1', 'w1', 'b3']);
  });
  it('shows fewer rows when there are fewer transactions', () => {
    expect(recentTransactions([[item('d1', 1)], [], []]).map((row) => row.id)).toEqual(['d1']);
  });
  it('links payments to a receipt, not bonus movements', () => {
    expect(hasReceipt(item('d', 1))).toBe(true);
    expect(hasReceipt(item('w', 1, 'withdrawal'))).toBe(true);
    expect(hasReceipt(item('b', 1, 'bonuses'))).toBe(false);
  });
});

describe('history row dates (spec §9: dd.mm.yyyy and hours:minutes)', () => {
  it('formats as dd.mm.yyyy hh:mm with leading zeros', () => {
    expect(historyStamp(new Date(2026, 2, 5, 7, 4).toISOString())).toBe('05.03.2026 07:04');
  });
});

describe('bonus and cashback rows (issue 13: the ledger reason is English, the label is in the page language)', () => {
  it('labels the bonus engine steps and the cashback payout by translation key, and no payment', () => {
    expect(historyKindKey({ kind: 'bonus_grant', type: 'bonuses' })).toBe('cashier.history.kind.bonus_grant');
    expect(historyKindKey({ kind: 'cashback_payout', type: 'cashbacks' })).toBe('cashier.history.kind.cashback_payout');
    expect(historyKindKey({ kind: null, type: 'deposit' })).toBeUndefined();
    // A kind the translations do not know gets its tab's label, never the English ledger reason (issue 15).
    expect(historyKindKey({ kind: 'bonus_something_new', type: 'bonuses' })).toBe('cashier.history.kind.other_bonuses');
    expect(historyKindKey({ kind: 'cashback_something_new', type: 'cashbacks' })).toBe('cashier.history.kind.other_cashbacks');
  });

  it.each(['en', 'it'] as const)(
    'an offer bonus an earlier version wrote to the ledger ("Welcome bonus (50.00)") shows a label in the page language, not its reason with a raw amount (issue 15, %s)',
    (locale) => {
      const t = createTranslate(translations(locale));
      // The rows as the cashier's bonuses tab returns them for the old kinds (ledger rows are kept for good).
      for (const [kind, description] of [
        ['bonus_deposit_offer', 'Welcome bonus (50.00)'],
        ['bonus_promo_code', 'promo code WELCOME10'],
        ['bonus_kind_of_tomorrow', 'Something (12.00)'],
      ] as const) {
        const key = historyKindKey({ kind, type: 'bonuses' });
        expect(key, kind).toBeDefined();
        const label = t(key!);
        expect(label).toBe(translations(locale)[key!]);
        expect(label).not.toContain(description);
        expect(label).not.toMatch(/\(\d+\.\d{2}\)/);
      }
    },
  );

  it('every labelled kind has a text in English and Italian', () => {
    for (const locale of ['en', 'it']) {
      const texts = JSON.parse(
        readFileSync(new URL(`../../content/shared/${locale}/translations/common.json`, import.meta.url), 'utf8'),
      ) as Record<string, string>;
      for (const kind of LABELLED_KINDS) {
        const key = historyKindKey({ kind, type: 'bonuses' })!;
        expect(texts[key], `${locale} ${key}`).toBeTruthy();
      }
      for (const tab of OTHER_KIND_TABS) expect(texts[`cashier.history.kind.other_${tab}`], `${locale} ${tab}`).toBeTruthy();
    }
  });
});
