/**
 * Reality checks at the player's chosen interval: a dialog that cannot be dismissed without an
 * answer shows the session's elapsed time; while it is open <html data-play-paused> tells the
 * game frame to pause.
 */
import { useEffect, useState } from 'react';
import { isAuthenticated } from '#common/api-contract';
import { browserApi } from '~/api/client';
import { useDialogs } from '~/dialogs/dialog-context';
import { useI18n } from '~/i18n';
import { useRootData } from '~/site-data';

const SESSION_START_KEY = 'session_started_at';

function sessionStartedAt(uid: number): number {
  const stored = sessionStorage.getItem(SESSION_START_KEY);
  const [storedUid, storedAt] = (stored ?? '').split(':');
  if (Number(storedUid) === uid && Number(storedAt) > 0) return Number(storedAt);
  const now = Date.now();
  sessionStorage.setItem(SESSION_START_KEY, `${uid}:${now}`);
  return now;
}

export function useRealityCheck() {
  const root = useRootData();
  const { locale } = useI18n();
  const { open } = useDialogs();
  const uid = root?.account.uid ?? 0;
  const isSignedIn = isAuthenticated(root?.account);
  const [minutes, setMinutes] = useState(0);

  useEffect(() => {
    if (!isSignedIn) return;
    browserApi(locale)
      .call('responsibleGaming.get')
      .then((view) => setMinutes(view.reality_check_minutes))
      .catch(() => setMinutes(0));
  }, [isSignedIn, locale]);

  useEffect(() => {
    if (!isSignedIn || minutes <= 0) return;
    const startedAt = sessionStartedAt(uid);
    const intervalMs = minutes * 60_000;
    let timer: ReturnType<typeof setTimeout>;
    const schedule = (fromMs: number) => {
      const elapsed = Date.now() - startedAt;
      const nextAt = Math.max(fromMs, Math.ceil((elapsed + 1) / intervalMs) * intervalMs);
      timer = setTimeout(() => {
        document.documentElement.dataset.playPaused = '1';
        void open('realityCheck', { preventClose: true, componentProps: { sessionStartedAt: startedAt } }).closed.then(() => {
          delete document.documentElement.dataset.playPaused;
          schedule(Date.now() - startedAt + intervalMs);
        });
      }, nextAt - elapsed);
    };
    schedule(0);
    return () => clearTimeout(timer);
  }, [isSignedIn, minutes, uid, open]);
}
