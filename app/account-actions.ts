import type { Locale } from '#common/locale';
import { browserApi } from '~/api/client';

/** Why the player was signed out without asking: said in a toast on the page they land on (issue 15). */
export type SignOutReason = 'idle';
const SIGN_OUT_REASON_KEY = 'signed_out_reason';

/** Logout calls the server, then goes to the index by full page load (spec §4). */
export async function signOut(locale: Locale, home: string, reason?: SignOutReason): Promise<void> {
  if (reason) {
    try {
      window.sessionStorage.setItem(SIGN_OUT_REASON_KEY, reason);
    } catch {
      // Storage refused (private mode): the player is signed out all the same, without the toast.
    }
  }
  try {
    await browserApi(locale).call('auth.logout');
  } finally {
    window.location.assign(home);
  }
}

/** The reason of a sign-out the player did not ask for, once: the next page load shows it. */
export function takeSignOutReason(): SignOutReason | undefined {
  try {
    const reason = window.sessionStorage.getItem(SIGN_OUT_REASON_KEY);
    window.sessionStorage.removeItem(SIGN_OUT_REASON_KEY);
    return reason === 'idle' ? reason : undefined;
  } catch {
    return undefined;
  }
}
