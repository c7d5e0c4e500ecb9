/**
 * Messenger mini-app entry (spec §1, §4): a visitor opening the site from the messenger carries
 * init data (the mini-app script's WebApp.initData, or the tgWebAppData hash parameter). An
 * anonymous visitor's init data goes to auth.messengerEntry, which registers the first time and
 * signs in; the page then loads again signed in. A player with two-factor on is asked for the
 * code first, in the authorization popup's code step. A refused entry shows the
 * wrong-registration toast (spec §8) and the visitor stays anonymous.
 */
import { markSignedIn } from '~/sign-in-events';
import { useEffect, useRef } from 'react';
import { isAuthenticated } from '#common/api-contract';
import { hashWithoutMessengerData, messengerInitData } from '#common/social-sign-in';
import { browserApi } from '~/api/client';
import { useI18n } from '~/i18n';
import { useRootData } from '~/site-data';
import { useToasts } from '~/toasts/toast-provider';
import { useDialogs } from '~/dialogs/dialog-context';
import { isApiError } from '#common/errors';

declare global {
  interface Window {
    Telegram?: { WebApp?: { initData?: string } };
  }
}

const IN_MESSENGER_KEY = 'in_messenger';

/** True inside the messenger's mini-app: it gave init data in this tab (the address loses it after entry). */
export function isInMessenger(): boolean {
  if (typeof window === 'undefined') return false;
  if (window.Telegram?.WebApp?.initData || messengerInitData(window.location.hash, undefined)) return true;
  try {
    return window.sessionStorage.getItem(IN_MESSENGER_KEY) === '1';
  } catch {
    return false;
  }
}

function rememberMessengerTab(): void {
  try {
    window.sessionStorage.setItem(IN_MESSENGER_KEY, '1');
  } catch {
    // Storage refused (private mode): the mini-app's own object still tells.
  }
}

/** Loads the page again, signed in, without the init data in the address. */
function reloadSignedIn(): void {
  markSignedIn();
  const { pathname, search, hash } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}${hashWithoutMessengerData(hash)}`);
  window.location.reload();
}

export function useMessengerEntry(): void {
  const account = useRootData()?.account;
  const { t, locale } = useI18n();
  const { show } = useToasts();
  const { open } = useDialogs();
  const isAnonymous = !isAuthenticated(account);
  const isTried = useRef(false);

  useEffect(() => {
    const initData = messengerInitData(window.location.hash, window.Telegram?.WebApp?.initData);
    if (initData) rememberMessengerTab();
    if (!isAnonymous || isTried.current) return;
    if (!initData) return;
    isTried.current = true;
    browserApi(locale)
      .call('auth.messengerEntry', { init_data: initData })
      .then(reloadSignedIn)
      .catch((error: unknown) => {
        const ticket = isApiError(error) && error.errorData?.two_factor === 'required' ? error.errorData.ticket : undefined;
        if (typeof ticket === 'string')
          open('auth', { componentProps: { secondFactor: { ticket, onSignedIn: reloadSignedIn } } });
        else show(t('messenger.wrongRegistration'), { tone: 'error' });
      });
  }, [isAnonymous, locale, show, t, open]);
}
