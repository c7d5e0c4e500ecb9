import { describe, expect, it } from 'vitest';
import { SYSTEM_PAGE_BUTTON_TARGET, SYSTEM_PAGE_TYPES, errorPageType, paymentPageType, systemPageLayout } from './system-pages';
import { ROUTE_TABLE } from './route-table';

describe('error page type (spec §2: which system page an error shows)', () => {
  it('banned user → user blocked, whatever the status', () => {
    expect(errorPageType({ status: 403, type: 'UserBannedException' })).toBe('userBlocked');
    expect(errorPageType({ status: 500, type: 'UserBannedException' })).toBe('userBlocked');
  });
  it('404 → not found, 403 → forbidden, 503 → maintenance', () => {
    expect(errorPageType({ status: 404 })).toBe('notFound');
    expect(errorPageType({ status: 403, type: 'AccessDeniedException' })).toBe('forbidden');
    expect(errorPageType({ status: 503 })).toBe('maintenance');
    expect(errorPageType({ type: 'ApplicationDisabledException' })).toBe('maintenance');
    expect(errorPageType({ type: 'ApplicationUnavailableException' })).toBe('maintenance');
  });
  it('anything else → not found', () => {
    expect(errorPageType({ status: 500 })).toBe('notFound');
    expect(errorPageType({})).toBe('notFound');
  });
});

describe('system page buttons and layouts (spec §2)', () => {
  it('buttons go where the spec says and other types have none', () => {
    expect(SYSTEM_PAGE_BUTTON_TARGET).toEqual({
      userBlocked: '/support',
      slotError: '/gamehall',
      paymentCancel: '/cashier/deposit',
      paymentFail: '/cashier/deposit',
      paymentNewWindow: '/cashier/deposit',
      paymentSuccess: '/gamehall',
    });
  });
  it('maintenance and forbidden use the empty layout, the others the default', () => {
    for (const type of SYSTEM_PAGE_TYPES) {
      expect(systemPageLayout(type)).toBe(type === 'maintenance' || type === 'forbidden' ? 'empty' : 'default');
    }
  });
  it('every payment result route maps to its payment page type', () => {
    const payment = ROUTE_TABLE.filter((route) => route.file.endsWith('payment-result.tsx'));
    // paycancel; payfail, paypending, paysuccess with and without a transaction; paymobile; paynewwindow
    expect(payment.length).toBe(9);
    for (const route of payment) expect(paymentPageType(route.name)).toMatch(/^payment[A-Z]/);
    expect(paymentPageType('cashier-index-paypending-transaction')).toBe('paymentPending');
    expect(paymentPageType('cashier-index-paynewwindow')).toBe('paymentNewWindow');
  });
});
