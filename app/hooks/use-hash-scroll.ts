/**
 * Smooth scroll to a hash anchor, offset by the header height, retrying while the target is not
 * rendered yet: up to 5 tries 300 ms apart (spec §2). Top-of-page on change and restore on back
 * are React Router's ScrollRestoration.
 */
import { useEffect } from 'react';
import { useLocation } from 'react-router';

export const HASH_SCROLL_RETRIES = 5;
export const HASH_SCROLL_STEP_MS = 300;

export function useHashScroll() {
  const { hash, key } = useLocation();
  useEffect(() => {
    if (!hash || hash.length < 2 || hash === '#popup-preview' || hash === '#real') return;
    let tries = 0;
    let timer: ReturnType<typeof setTimeout>;
    const attempt = () => {
      const target = document.getElementById(decodeURIComponent(hash.slice(1)));
      if (target) {
        const header = document.querySelector<HTMLElement>('.site-header');
        const top = target.getBoundingClientRect().top + window.scrollY - (header?.offsetHeight ?? 0);
        window.scrollTo({ top, behavior: 'smooth' });
        return;
      }
      if (++tries < HASH_SCROLL_RETRIES) timer = setTimeout(attempt, HASH_SCROLL_STEP_MS);
    };
    attempt();
    return () => clearTimeout(timer);
  }, [hash, key]);
}
