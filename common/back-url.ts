/**
 * The return address of spec §3: stored under the key backUrl (social sign-in, payment
 * success), read once, removed, then navigated to by a full page load. Only same-origin paths
 * are stored or followed (architecture §4: redirect targets from the address).
 */
import { safeRedirectTarget } from './address';

export const BACK_URL_KEY = 'backUrl';

/** The part of Web Storage the rule needs, so tests can pass a plain object. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Stores a return address; anything but a same-origin path clears the key instead. */
export function storeBackUrl(storage: KeyValueStorage, target: string | null | undefined): boolean {
  const safe = safeRedirectTarget(target, '');
  if (!safe) {
    storage.removeItem(BACK_URL_KEY);
    return false;
  }
  storage.setItem(BACK_URL_KEY, safe);
  return true;
}

/** Reads the stored return address once: the key is removed whatever it held. */
export function takeBackUrl(storage: KeyValueStorage, fallback: string): string {
  const stored = storage.getItem(BACK_URL_KEY);
  storage.removeItem(BACK_URL_KEY);
  return safeRedirectTarget(stored, fallback);
}

/**
 * How to load a target as a full page from the current address: assigning an address that only
 * differs by its hash would not load anything, so that case reloads instead.
 */
export function fullPageLoad(target: string, currentHref: string): { action: 'assign' | 'reload'; href: string } {
  const current = new URL(currentHref);
  const next = new URL(target, current);
  const isSameDocument = next.origin === current.origin && next.pathname === current.pathname && next.search === current.search;
  return { action: isSameDocument ? 'reload' : 'assign', href: next.href };
}

/** Takes the stored return address and leaves for it by a full page load. */
export function leaveByBackUrl(
  storage: KeyValueStorage,
  fallback: string,
  location: { href: string; assign(url: string): void; reload(): void },
  replaceAddress: (href: string) => void,
): string {
  const target = takeBackUrl(storage, fallback);
  const load = fullPageLoad(target, location.href);
  if (load.action === 'reload') {
    replaceAddress(load.href);
    location.reload();
  } else {
    location.assign(load.href);
  }
  return target;
}
