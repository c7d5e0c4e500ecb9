import { describe, expect, it } from 'vitest';
import {
  canOpenNewWindow,
  chooseDepositFlow,
  followedTransactionId,
  isFinalDepositStatus,
  nextStep,
  pollDelayMs,
  resultPath,
} from './deposit-flow';

describe('deposit flow choice (mobile flow on mobile device classes, new window on request)', () => {
  const all = ['same_window', 'new_window', 'mobile'] as const;
  it('uses the mobile flow on a phone when the method offers it', () => {
    expect(chooseDepositFlow({ flows: all, device: 'mobile', wantsNewWindow: true })).toBe('mobile');
    expect(chooseDepositFlow({ flows: ['same_window', 'new_window'], device: 'mobile', wantsNewWindow: true })).toBe(
      'same_window',
    );
  });
  it('opens a new window only when asked and offered, never on a phone', () => {
    expect(chooseDepositFlow({ flows: all, device: 'desktop', wantsNewWindow: true })).toBe('new_window');
    expect(chooseDepositFlow({ flows: all, device: 'desktop', wantsNewWindow: false })).toBe('same_window');
    expect(chooseDepositFlow({ flows: ['same_window'], device: 'laptop', wantsNewWindow: true })).toBe('same_window');
    expect(canOpenNewWindow(all, 'tablet')).toBe(true);
    expect(canOpenNewWindow(all, 'mobile')).toBe(false);
  });
  it('falls back to the only flow a method has', () => {
    expect(chooseDepositFlow({ flows: ['new_window'], device: 'desktop', wantsNewWindow: false })).toBe('new_window');
  });
});

describe('payment result screens (spec §2: success, fail, cancel; pending polls until final)', () => {
  it('maps final statuses to their screen and leaves open ones where they are', () => {
    expect(resultPath('success', 'dep_1')).toBe('/cashier/paysuccess/dep_1');
    expect(resultPath('fail', 'dep_1')).toBe('/cashier/payfail/dep_1');
    expect(resultPath('cancel', 'dep_1')).toBe('/cashier/paycancel');
    expect(resultPath('pending', 'dep_1')).toBeUndefined();
    expect(resultPath('new', 'dep_1')).toBeUndefined();
    expect(isFinalDepositStatus('pending')).toBe(false);
    expect(isFinalDepositStatus('cancel')).toBe(true);
  });
  it('sends a new-window deposit to /cashier/paynewwindow with its id, the others to the provider', () => {
    expect(nextStep({ id: 'dep_1', flow: 'new_window', redirect_url: '/psp/x' })).toEqual({
      kind: 'screen',
      path: '/cashier/paynewwindow?id=dep_1',
      providerHref: '/psp/x',
    });
    expect(nextStep({ id: 'dep_1', flow: 'same_window', redirect_url: '/psp/x' })).toEqual({ kind: 'provider', href: '/psp/x' });
    expect(nextStep({ id: 'dep_1', flow: 'mobile', redirect_url: '/psp/x' })).toEqual({ kind: 'provider', href: '/psp/x' });
  });
  it('follows the id of the address first, the stored currentTransactionId only on flow screens', () => {
    expect(followedTransactionId({ param: 'a', query: 'b', stored: 'c', isFlowScreen: true })).toBe('a');
    expect(followedTransactionId({ query: 'b', stored: 'c', isFlowScreen: true })).toBe('b');
    expect(followedTransactionId({ stored: 'c', isFlowScreen: true })).toBe('c');
    expect(followedTransactionId({ stored: 'c', isFlowScreen: false })).toBeUndefined();
  });
  it('polls quickly at first, then slowly', () => {
    expect(pollDelayMs(0)).toBe(2_000);
    expect(pollDelayMs(30)).toBe(10_000);
  });
});
