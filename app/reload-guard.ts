/**
 * After a deployment the page may ask for a code chunk that no longer exists. One full reload
 * fetches the new build; the guard (spec §9: time-to-live 10000 ms) stops a reload loop when
 * the chunk is missing for another reason.
 */
import { useEffect } from 'react';

export const RELOAD_GUARD_TTL_MS = 10_000;
const RELOAD_GUARD_KEY = 'reload_guard_at';

export function shouldReload(lastReloadAtMs: number | null, nowMs: number, ttlMs = RELOAD_GUARD_TTL_MS): boolean {
  return lastReloadAtMs === null || nowMs - lastReloadAtMs > ttlMs;
}

export function useReloadGuard() {
  useEffect(() => {
    function onPreloadError(event: Event) {
      const stored = Number(sessionStorage.getItem(RELOAD_GUARD_KEY));
      const now = Date.now();
      if (!shouldReload(Number.isFinite(stored) && stored > 0 ? stored : null, now)) return;
      sessionStorage.setItem(RELOAD_GUARD_KEY, String(now));
      event.preventDefault();
      window.location.reload();
    }
    window.addEventListener('vite:preloadError', onPreloadError);
    return () => window.removeEventListener('vite:preloadError', onPreloadError);
  }, []);
}
