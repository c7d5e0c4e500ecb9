/**
 * Idle logout (spec §4): while signed in with time_to_force_logout set, a warning opens at 80 %
 * of the time with a countdown of the remaining 20 %; at 100 % the player is signed out. Key
 * presses, clicks, scrolls and route changes reset the timers and close the warning.
 */
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { isAuthenticated } from '#common/api-contract';
import { useDialogs } from '~/dialogs/dialog-context';
import { useRootData } from '~/site-data';
import { useI18n } from '~/i18n';
import { idleSchedule } from '~/session-timers';
import { signOut } from '~/account-actions';

const ACTIVITY_EVENTS = ['keydown', 'click', 'scroll', 'touchstart'] as const;

export function useIdleLogout() {
  const root = useRootData();
  const { locale, localePath } = useI18n();
  const { open, close } = useDialogs();
  const { key: routeKey } = useLocation();
  const seconds = root?.generalInfo.time_to_force_logout ?? null;
  const isActive = isAuthenticated(root?.account) && typeof seconds === 'number' && seconds > 0;
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
      logoutTimer = setTimeout(() => void signOut(locale, localePath('/')), schedule.logoutAtMs);
    }
    restartRef.current = restart;
    restart();
    ACTIVITY_EVENTS.forEach((name) => window.addEventListener(name, restart, { passive: true, capture: true }));
    return () => {
      clearTimeout(warnTimer);
      clearTimeout(logoutTimer);
      if (warningId) close(warningId, undefined, { force: true });
      ACTIVITY_EVENTS.forEach((name) => window.removeEventListener(name, restart, { capture: true }));
    };
  }, [isActive, seconds, open, close, locale, localePath]);

  // A route change is activity too.
  useEffect(() => restartRef.current(), [routeKey]);
}
