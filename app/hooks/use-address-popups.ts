/**
 * Popups opened from the address (spec §2): show_popup_reg / show_popup_auth (with
 * prevent_close=1 non-closable; the parameters are removed after close; show_popup_reg kept in
 * local storage), popup={sysname} (with #popup-preview a preview), and promo_code (spec §4:
 * overwrites the stored code under the key promo_code). redirectUrl (the anonymous access rule's
 * bounce from a guarded page) opens sign-in, which returns to that page (issue 15); a visitor
 * already signed in goes there at once.
 */
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useDialogs } from '~/dialogs/dialog-context';
import { isAuthenticated } from '#common/api-contract';
import { REDIRECT_URL_PARAM, redirectUrlTarget } from '#common/sign-in-return';
import { useRootData } from '~/site-data';

export const PROMO_CODE_KEY = 'promo_code';
export const SHOW_POPUP_REG_KEY = 'show_popup_reg';
const AUTH_PARAMS = ['show_popup_reg', 'show_popup_auth', 'prevent_close', REDIRECT_URL_PARAM];

/** The address without the auth popup parameters, or undefined when there were none. */
export function withoutAuthPopupParams(search: string): string | undefined {
  const params = new URLSearchParams(search);
  if (!AUTH_PARAMS.some((name) => params.has(name))) return undefined;
  AUTH_PARAMS.forEach((name) => params.delete(name));
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

export function useAddressPopups() {
  const location = useLocation();
  const navigate = useNavigate();
  const { open } = useDialogs();
  const isSignedIn = isAuthenticated(useRootData()?.account);
  // Removing the auth parameters after a close is itself a change of address; it must not open
  // the popups still named in the address (a campaign popup closed earlier) a second time.
  const cleanupTarget = useRef<string | null>(null);

  useEffect(() => {
    const address = `${location.pathname}${location.search}${location.hash}`;
    if (cleanupTarget.current === address) {
      cleanupTarget.current = null;
      return;
    }
    const params = new URLSearchParams(location.search);
    const promoCode = params.get('promo_code');
    if (promoCode) localStorage.setItem(PROMO_CODE_KEY, promoCode);

    const returnTo = redirectUrlTarget(location.search);
    if (returnTo && isSignedIn) {
      void navigate(returnTo, { replace: true });
      return;
    }
    const wantsReg = params.has('show_popup_reg');
    if (wantsReg || params.has('show_popup_auth') || returnTo) {
      if (wantsReg) localStorage.setItem(SHOW_POPUP_REG_KEY, params.get('show_popup_reg') ?? '1');
      const { closed } = open('auth', {
        preventClose: params.get('prevent_close') === '1',
        componentProps: { mode: wantsReg ? 'sign_up' : 'sign_in', returnTo },
      });
      void closed.then(() => {
        const current = new URL(window.location.href);
        const cleaned = withoutAuthPopupParams(current.search);
        if (cleaned === undefined) return;
        cleanupTarget.current = `${current.pathname}${cleaned}${current.hash}`;
        void navigate(cleanupTarget.current, { replace: true, preventScrollReset: true });
      });
    }

    const popup = params.get('popup');
    if (popup) open('campaign', { componentProps: { sysname: popup, isPreview: location.hash === '#popup-preview' } });
    // Only a change of address opens popups; re-renders do not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.key]);
}
