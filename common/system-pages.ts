/**
 * System pages of spec §2: each shows a header, a description and a button from translations
 * (keys system.{type}.header|description|button); the button targets, layouts and the mapping
 * from an error to the page type are fixed by the spec.
 */
import type { LayoutName } from './route-table';
import type { ErrorType } from './errors';

export const SYSTEM_PAGE_TYPES = [
  'maintenance',
  'notFound',
  'forbidden',
  'userBlocked',
  'unsubscribe',
  'slotError',
  'paymentCancel',
  'paymentFail',
  'paymentMobile',
  'paymentNewWindow',
  'paymentPending',
  'paymentSuccess',
] as const;
export type SystemPageType = (typeof SYSTEM_PAGE_TYPES)[number];

/** Button targets (locale-less paths); types absent here have no button link. */
export const SYSTEM_PAGE_BUTTON_TARGET: Partial<Record<SystemPageType, string>> = {
  userBlocked: '/support',
  slotError: '/gamehall',
  paymentCancel: '/cashier/deposit',
  paymentFail: '/cashier/deposit',
  paymentNewWindow: '/cashier/deposit',
  paymentSuccess: '/gamehall',
};

export function systemPageLayout(type: SystemPageType): LayoutName {
  return type === 'maintenance' || type === 'forbidden' ? 'empty' : 'default';
}

export const SYSTEM_PAGE_STATUS: Partial<Record<SystemPageType, number>> = {
  notFound: 404,
  forbidden: 403,
  userBlocked: 403,
  maintenance: 503,
};

/** An error as the page layer sees it: a status and, for API errors, the catalogue type. */
export interface PageError {
  status?: number;
  type?: ErrorType | string;
}

/**
 * The error page type (spec §2): banned user → user blocked; 404 → not found; 403 → forbidden;
 * 503 maintenance → maintenance; anything else → not found.
 */
export function errorPageType(error: PageError): SystemPageType {
  if (error.type === 'UserBannedException') return 'userBlocked';
  if (error.type === 'ApplicationDisabledException' || error.type === 'ApplicationUnavailableException') {
    return 'maintenance';
  }
  if (error.status === 404) return 'notFound';
  if (error.status === 403) return 'forbidden';
  if (error.status === 503) return 'maintenance';
  return 'notFound';
}

/** Payment result route name → system page type; the pending page shows a loader (spec §2). */
export function paymentPageType(routeName: string): SystemPageType {
  const kind = /cashier-index-pay([a-z]+)/.exec(routeName)?.[1] ?? '';
  const types: Record<string, SystemPageType> = {
    cancel: 'paymentCancel',
    fail: 'paymentFail',
    mobile: 'paymentMobile',
    newwindow: 'paymentNewWindow',
    pending: 'paymentPending',
    success: 'paymentSuccess',
  };
  return types[kind] ?? 'notFound';
}
