/**
 * Site-wide behaviours with no markup of their own: address-driven popups, hash scrolling, the
 * device class on <html>, the service worker and the visit hit. The game client in the game
 * page's frame runs none of them but the device class (issue 15: the frame ran a second copy of
 * the site, with its own idle timer and sign-out) and the reload guard; it reports activity to the page instead.
 */
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useAddressPopups } from '~/hooks/use-address-popups';
import { useHashScroll } from '~/hooks/use-hash-scroll';
import { deviceClass } from '#common/device';
import { useToasts } from '~/toasts/toast-provider';
import { useI18n } from '~/i18n';
import { useRootData } from '~/site-data';
import { siteTracker } from '~/analytics';
import { useReloadGuard } from '~/reload-guard';
import { useFrameActivityReport, useIdleLogout } from '~/hooks/use-idle-logout';
import { isFramedGameClient } from '~/games/frame-messages';
import { takeSignOutReason } from '~/account-actions';
import { useRealityCheck } from '~/hooks/use-reality-check';
import { useSocialSignInListener } from '~/hooks/use-social-sign-in';
import { useMessengerEntry } from '~/hooks/use-messenger-entry';
import { useRegistrationCompletion } from '~/hooks/use-registration-completion';
import { usePromotionPopups } from '~/hooks/use-promotion-popups';

/** The fraud-check hit goes 3 seconds after start (spec §7). */
export const FRAUD_CHECK_DELAY_MS = 3000;
const FRAUD_SESSION_KEY = 'seon_session';
/** Start-up work that waits for an idle moment still runs within this long of the page's hydration. */
const IDLE_TASK_TIMEOUT_MS = 2000;

function sendHit(extra: Record<string, string> = {}) {
  const params = new URLSearchParams(window.location.search);
  const hit = new URLSearchParams({ referrer: document.referrer, ...extra });
  const trackId = params.get('track_id');
  if (trackId) hit.set('track_id', trackId);
  void fetch(`/hit?${hit}`, { credentials: 'same-origin' }).catch(() => undefined);
}

/** Runs the task once the browser is idle (within 2 s), in a task of its own; returns its cancel. */
function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(task, { timeout: IDLE_TASK_TIMEOUT_MS });
    return () => window.cancelIdleCallback(handle);
  }
  // Safari has no idle callback: a timer still gives the task a turn of its own after the effects.
  const timer = setTimeout(task, 0);
  return () => clearTimeout(timer);
}

function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
    document.documentElement.dataset.swError = '1';
  });
}

/** A fraud-check session token for this browser session, made once and reused. */
function fraudSessionToken(): string {
  const existing = sessionStorage.getItem(FRAUD_SESSION_KEY);
  if (existing) return existing;
  const token = crypto.randomUUID();
  sessionStorage.setItem(FRAUD_SESSION_KEY, token);
  return token;
}

/** Tells the player when the connection drops and when it is back. */
function useConnectionToasts() {
  const { show } = useToasts();
  const { t } = useI18n();
  useEffect(() => {
    const offline = () => show(t('offline.header'), { tone: 'error' });
    const online = () => show(t('offline.back'), { tone: 'success' });
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
    };
  }, [show, t]);
}

/** The device class on <html>, kept as the window resizes (also the browser tests' sign of hydration). */
function useDeviceClass() {
  useEffect(() => {
    const update = () => (document.documentElement.dataset.device = deviceClass(window.innerWidth));
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, []);
}

/** After a sign-out the player did not ask for (idle logout), the page they land on says why. */
function useSignOutReasonToast() {
  const { show } = useToasts();
  const { t } = useI18n();
  useEffect(() => {
    if (takeSignOutReason() === 'idle') show(t('idle.signedOut'), { tone: 'info' });
  }, [show, t]);
}

export function SiteBehaviours() {
  // Whether this document is framed is only known in the browser; both branches render nothing,
  // so the choice made during hydration cannot differ from the server's markup.
  const isFrame = typeof window !== 'undefined' && isFramedGameClient(window);
  return isFrame ? <GameFrameBehaviours /> : <PageBehaviours />;
}

function GameFrameBehaviours() {
  useDeviceClass();
  // A chunk lost to a deployment reloads the frame alone.
  useReloadGuard();
  useFrameActivityReport();
  return null;
}

function PageBehaviours() {
  useAddressPopups();
  useHashScroll();
  useConnectionToasts();
  useReloadGuard();
  useIdleLogout();
  useSocialSignInListener();
  useMessengerEntry();
  useRegistrationCompletion();
  useRealityCheck();
  usePromotionPopups();
  useSignOutReasonToast();
  useDeviceClass();

  const { pathname } = useLocation();
  useEffect(() => siteTracker?.track('page_view', { path: pathname }), [pathname]);

  const isFraudCheckEnabled = useRootData()?.generalInfo.is_seon_enabled ?? false;
  useEffect(() => {
    // The visit hit, the tracker's first send and the worker's registration each cost a phone
    // 5–15 ms (a first fetch, an import): each goes in a task of its own once the page is idle,
    // not in the one task that runs every effect of the page's hydration (issue 12: blocking time).
    const cancels = [whenIdle(() => sendHit()), whenIdle(() => siteTracker?.ready()), whenIdle(registerServiceWorker)];
    const fraudTimer = isFraudCheckEnabled
      ? setTimeout(() => sendHit({ seon_session: fraudSessionToken() }), FRAUD_CHECK_DELAY_MS)
      : undefined;
    return () => {
      cancels.forEach((cancel) => cancel());
      clearTimeout(fraudTimer);
    };
  }, [isFraudCheckEnabled]);
  return null;
}
