/**
 * Social sign-in from the site (spec §1, §3, §7, §9): a 640×480 pop-up to /oauth/init; the
 * return address is stored under backUrl first. When the pop-up reports success (postMessage
 * from our own origin, or our BroadcastChannel when the provider's opener policy cut the link),
 * the page leaves for the stored return address by a full page load, now signed in. A player
 * with two-factor on is asked for the code first, in the authorization popup's code step.
 */
import { markSignedIn } from '~/sign-in-events';
import { useEffect } from 'react';
import { leaveByBackUrl, storeBackUrl } from '#common/back-url';
import {
  isSocialMessage,
  SECOND_FACTOR_TICKET_KEY,
  SOCIAL_MESSAGE_TYPE,
  SOCIAL_POPUP_SIZE,
  socialInitPath,
  socialPopupFeatures,
  socialReturnAddress,
  type TypeAuth,
} from '#common/social-sign-in';
import { useI18n } from '~/i18n';
import { useToasts } from '~/toasts/toast-provider';
import { useDialogs } from '~/dialogs/dialog-context';

/** How long this tab waits for its pop-up; other tabs of the site ignore the broadcast. */
const PENDING_MS = 15 * 60 * 1000;
let pendingUntil = 0;

/** Opens the provider's pop-up; `returnTo` is the path the sign-in popup was opened with (issue 15). */
export function openSocialPopup(
  service: string,
  typeAuth: TypeAuth,
  size: { width: number; height: number } = SOCIAL_POPUP_SIZE,
  returnTo?: string,
): void {
  const returnAddress = socialReturnAddress(window.location, returnTo);
  storeBackUrl(window.localStorage, returnAddress);
  const path = socialInitPath(service, returnAddress, typeAuth);
  pendingUntil = Date.now() + PENDING_MS;
  const popup = window.open(path, SOCIAL_MESSAGE_TYPE, socialPopupFeatures(window, size));
  // Pop-ups blocked: the whole page goes through the flow and comes back to the return address.
  if (!popup) window.location.assign(path);
  else popup.focus();
}

/** A ticket the pop-up left in this tab when it could not reach an opener (pop-up blocked), once. */
function takeStoredTicket(): string | null {
  try {
    const ticket = window.sessionStorage.getItem(SECOND_FACTOR_TICKET_KEY);
    window.sessionStorage.removeItem(SECOND_FACTOR_TICKET_KEY);
    return ticket;
  } catch {
    return null;
  }
}

/** Listens, site-wide, for the pop-up's answer. */
export function useSocialSignInListener(): void {
  const { t, localePath } = useI18n();
  const { show } = useToasts();
  const { open } = useDialogs();
  useEffect(() => {
    const leave = () =>
      leaveByBackUrl(window.localStorage, localePath('/'), window.location, (href) =>
        window.history.replaceState(window.history.state, '', href),
      );
    const askForCode = (ticket: string) => open('auth', { componentProps: { secondFactor: { ticket, onSignedIn: leave } } });
    function handle(data: unknown) {
      if (!isSocialMessage(data) || Date.now() > pendingUntil) return;
      pendingUntil = 0;
      if (data.status === 'success') {
        markSignedIn();
        leave();
      } else if (data.status === 'two_factor') askForCode(data.ticket);
      else show(t(`social.popup.error.${data.reason}`), { tone: 'error' });
    }
    const storedTicket = takeStoredTicket();
    if (storedTicket) askForCode(storedTicket);
    const onMessage = (event: MessageEvent) => {
      if (event.origin === window.location.origin) handle(event.data);
    };
    window.addEventListener('message', onMessage);
    const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(SOCIAL_MESSAGE_TYPE) : undefined;
    const onBroadcast = (event: MessageEvent) => handle(event.data);
    channel?.addEventListener('message', onBroadcast);
    return () => {
      window.removeEventListener('message', onMessage);
      channel?.removeEventListener('message', onBroadcast);
      channel?.close();
    };
  }, [t, localePath, show, open]);
}
