/**
 * The messages between the game page and the game client in its frame (issue 15). The frame is
 * part of the page, not a second site: it runs no timers, popups or sign-out of its own, and says
 * what the page needs to know through these messages, always to and from the site's own origin.
 */
export const FRAME_MESSAGE = {
  /** A round moved a balance: the page's header and balances refresh. */
  balanceChanged: 'game-balance-changed',
  /** The player did something in the game: the page's one idle timer starts again. */
  activity: 'game-activity',
  /** The game found the session gone: the page signs out, so both end together. */
  sessionEnded: 'game-session-ended',
} as const;

export type FrameMessageType = (typeof FRAME_MESSAGE)[keyof typeof FRAME_MESSAGE];

/** The path of the game client (/platform/game/…, with or without a locale prefix). */
export function isGameClientPath(pathname: string): boolean {
  return /^(\/[a-z]{2})?\/platform\/game\//.test(pathname);
}

/** Whether this document is the game client framed by a page of the same site. */
export function isFramedGameClient(win: Window): boolean {
  if (win.parent === win || !isGameClientPath(win.location.pathname)) return false;
  try {
    // A cross-origin parent throws here: such a frame is not ours to report to.
    return win.parent.location.origin === win.location.origin;
  } catch {
    return false;
  }
}

/** Tells the framing page; a document that is not a framed game client says nothing. */
export function postToPage(type: FrameMessageType): void {
  if (typeof window === 'undefined' || !isFramedGameClient(window)) return;
  window.parent.postMessage({ type }, window.location.origin);
}

/** The type of a message from a frame of this site, or undefined for anything else. */
export function frameMessageType(event: MessageEvent): FrameMessageType | undefined {
  if (event.origin !== window.location.origin) return undefined;
  const type = (event.data as { type?: unknown } | null)?.type;
  return Object.values(FRAME_MESSAGE).find((known) => known === type);
}
