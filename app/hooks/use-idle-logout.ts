/**
 * Idle logout (spec §4): while signed in with time_to_force_logout set, a warning opens at 80 %
 * of the time with a countdown of the remaining 20 %; at 100 % the player is signed out. Key
 * presses, clicks, scrolls and route changes reset the timers and close the warning.
 *
 * One timer per tab (issue 15): the game page's frame runs none of its own; it reports the
 * player's activity to the page (useFrameActivityReport), which counts it like its own, so
 * playing in the frame keeps the player signed in and a sign-out ends page and frame together.
 */
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { isAuthenticated } from '#common/api-contract';
import { useDialogs } from '~/dialogs/dialog-context';
import { useRootData } from '~/site-data';
import { useI18n } from '~/i18n';
import { idleSchedule } from '~/session-timers';
import { signOut } from '~/account-actions';
import { FRAME_MESSAGE, frameMessageType, postToPage } from '~/games/frame-messages';

const ACTIVITY_EVENTS = ['keydown', 'click', 'scroll', 'touchstart'] as const;

export function useIdleLogout() {
  const root = useRootData();
  const { locale, localePath } = useI18n();
  const { open, close } = useDialogs();
  const { key: routeKey } = useLocation();
  const seconds = root?.generalInfo.time_to_force_logout ?? null;
  const isSignedIn = isAuthenticated(root?.account);
  const isActive = isSignedIn && typeof seconds === 'number' && seconds > 0;
  const restartRef = useRef<() => void>(() => undefined);

  useEffect(() => {
    if (!isActive || seconds === null) return;
    const schedule = idleSchedule(seconds);
    let warnTimer: ReturnType<typeof setTimeout> | undefined;
    let logoutTimer: ReturnType<typeof setTimeout> | undefined;
    let warningId: string | undefined;

    function restart() {
      clearTimeout(warnTimer);
      clearTimeout(logoutTimer);
      if (warningId) close(warningId, undefined, { force: true });
      warningId = undefined;
      warnTimer = setTimeout(() => {
        warningId = open('idleWarning', { preventClose: true, componentProps: { countdownS: schedule.countdownS } }).id;
      }, schedule.warnAtMs);
      logoutTimer = setTimeout(() => void signOut(locale, localePath('/'), 'idle'), schedule.logoutAtMs);
    }
    // Activity inside the game frame counts as activity on the page.
    const onFrameMessage = (event: MessageEvent) => {
      if (frameMessageType(event) === FRAME_MESSAGE.activity) restart();
    };
    restartRef.current = restart;
    restart();
    ACTIVITY_EVENTS.forEach((name) => window.addEventListener(name, restart, { passive: true, capture: true }));
    window.addEventListener('message', onFrameMessage);
    return () => {
      clearTimeout(warnTimer);
      clearTimeout(logoutTimer);
      if (warningId) close(warningId, undefined, { force: true });
      ACTIVITY_EVENTS.forEach((name) => window.removeEventListener(name, restart, { capture: true }));
      window.removeEventListener('message', onFrameMessage);
      restartRef.current = () => undefined;
    };
  }, [isActive, seconds, open, close, locale, localePath]);

  // A route change is activity too.
  useEffect(() => restartRef.current(), [routeKey]);

  // The game found the session gone (ended elsewhere, or revoked): the page signs out too, so the
  // tab never shows a signed-in page around a signed-out game.
  useEffect(() => {
    if (!isSignedIn) return;
    const onFrameMessage = (event: MessageEvent) => {
      if (frameMessageType(event) === FRAME_MESSAGE.sessionEnded) void signOut(locale, localePath('/'));
    };
    window.addEventListener('message', onFrameMessage);
    return () => window.removeEventListener('message', onFrameMessage);
  }, [isSignedIn, locale, localePath]);
}

/** In the game frame: every key press, click, scroll or touch is reported to the page's idle timer. */
export function useFrameActivityReport() {
  useEffect(() => {
    const report = () => postToPage(FRAME_MESSAGE.activity);
    ACTIVITY_EVENTS.forEach((name) => window.addEventListener(name, report, { passive: true, capture: true }));
    return () => ACTIVITY_EVENTS.forEach((name) => window.removeEventListener(name, report, { capture: true }));
  }, []);
}
