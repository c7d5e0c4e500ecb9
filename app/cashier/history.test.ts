import { describe, expect, it } from 'vitest';
import type { HistoryItem } from '#common/cashier-contract';
import {
  HISTORY_PAGE_SIZE,
  RECENT_TRANSACTIONS_COUNT,
  appendUnique,
  hasMore,
  hasReceipt,
  historyStamp,
  parseHistoryTab,
  recentTransactions,
} from './history';

const item = (id: string, minute: number, type: HistoryItem['type'] = 'deposit'): HistoryItem => ({
  id,
  type,
  method: type === 'bonuses' ? null : 'card',
  amount: { amount: '10.00', currency: 'EUR' },
  status: 'success',
  created_at: new Date(Date.UTC(2026, 0, 1, 12, minute)).toISOString(),
  description: '',
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
