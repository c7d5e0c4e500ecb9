/**
 * The pages the social sign-in pop-up ends on. Success: tell the page that opened the pop-up
 * (postMessage to our own origin only, and a same-origin BroadcastChannel for when the provider's
 * opener policy cut the link) and close; with nobody to tell, go to the return address. Two-factor
 * still to do: the same, carrying the ticket the code step needs; with nobody to tell, the ticket
 * waits in this tab's session storage for the return address's page to ask for the code. Failure:
 * say what went wrong and offer to close.
 */
import type { Locale } from '#common/locale';
import { SECOND_FACTOR_TICKET_KEY, SOCIAL_MESSAGE_TYPE } from '#common/social-sign-in';
import { scriptJson } from '#common/script-json';
import { escapeXml } from './brand';

export type SocialFailure = 'denied' | 'expired' | 'failed' | 'unavailable' | 'blocked' | 'tooMany';

/** What the pop-up tells the site; the app's listener reads exactly this shape. */
export type SocialResult =
  | { status: 'success'; redirectUrl: string; isNew: boolean; typeAuth: string }
  | { status: 'two_factor'; redirectUrl: string; ticket: string }
  | { status: 'error'; reason: SocialFailure };

const FALLBACK_TEXT: Record<string, string> = {
  'social.popup.title': 'Sign in',
  'social.popup.success': 'You are signed in. This window closes by itself.',
  'social.popup.twoFactor': 'Enter your two-factor code on the site to finish signing in.',
  'social.popup.close': 'Close',
  'social.popup.error.denied': 'Sign-in was cancelled.',
  'social.popup.error.expired': 'This sign-in link has expired or was already used. Please start again.',
  'social.popup.error.failed': 'Sign-in could not be completed. Please try again.',
  'social.popup.error.unavailable': 'This sign-in service is not available.',
  'social.popup.error.blocked': 'This account cannot sign in.',
  'social.popup.error.tooMany': 'Too many attempts. Please try again later.',
};

/** The pop-up's last page; its style and script carry the answer's CSP nonce (`nonce`), as no inline handler may run. */
export function socialResultPage(input: {
  locale: Locale;
  translations: Record<string, string>;
  result: SocialResult;
  nonce: string;
}): string {
  const text = (key: string) => escapeXml(input.translations[key] ?? FALLBACK_TEXT[key] ?? key);
  const { result } = input;
  const message = { type: SOCIAL_MESSAGE_TYPE, ...result };
  const body =
    result.status === 'success'
      ? `<p data-social-result="success">${text('social.popup.success')}</p>`
      : result.status === 'two_factor'
        ? `<p data-social-result="two_factor">${text('social.popup.twoFactor')}</p>`
        : `<p role="alert" data-social-result="error" data-reason="${result.reason}">${text(`social.popup.error.${result.reason}`)}</p><button type="button" data-close>${text('social.popup.close')}</button>`;
  const script = `(function () {
  var message = ${scriptJson(message)};
  var closeButton = document.querySelector('[data-close]');
  if (closeButton) closeButton.addEventListener('click', function () { window.close(); });
  try { var channel = new BroadcastChannel(${scriptJson(SOCIAL_MESSAGE_TYPE)}); channel.postMessage(message); channel.close(); } catch (e) {}
  var opener = null;
  try { opener = window.opener && !window.opener.closed ? window.opener : null; } catch (e) {}
  if (opener) { try { opener.postMessage(message, window.location.origin); } catch (e) {} }
  if (message.status === 'two_factor' && !opener) {
    try { window.sessionStorage.setItem(${scriptJson(SECOND_FACTOR_TICKET_KEY)}, message.ticket); } catch (e) {}
  }
  if (message.status === 'success' || message.status === 'two_factor') {
    // A window a script opened closes; a full page (pop-up blocked) is not closable and goes on.
    window.close();
    setTimeout(function () { window.location.replace(message.redirectUrl); }, 400);
  }
})();`;
  return `<!doctype html><html lang="${input.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${text('social.popup.title')}</title><style nonce="${input.nonce}">body{font-family:system-ui,sans-serif;background:#0f1020;color:#f4f4f8;margin:0;display:grid;place-items:center;min-height:100vh;text-align:center;padding:1rem}button{margin-top:1rem;height:40px;padding:0 1.5rem;border:0;border-radius:999px;background:#f5b301;color:#111;font:inherit;font-weight:700;cursor:pointer}</style></head><body><main>${body}</main><script nonce="${input.nonce}">${script}</script></body></html>`;
}
