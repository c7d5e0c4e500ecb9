/**
 * "A player has just signed in" across the page load that follows it (spec §4: after login the
 * unseen-cashback popup and the campaign popup are queued). Every way of signing in marks it
 * before leaving the page; the next page that may show popups takes the mark, once.
 */
const PENDING_KEY = 'signed_in_popups_pending';

export function markSignedIn(): void {
  try {
    window.sessionStorage.setItem(PENDING_KEY, '1');
  } catch {
    // Storage refused (private mode): the popups are not shown, nothing else changes.
  }
}

/** True once after a sign-in was marked in this tab. */
export function takeSignedInMark(): boolean {
  try {
    const isPending = window.sessionStorage.getItem(PENDING_KEY) === '1';
    window.sessionStorage.removeItem(PENDING_KEY);
    return isPending;
  } catch {
    return false;
  }
}
