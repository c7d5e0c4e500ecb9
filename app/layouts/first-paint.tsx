/**
 * A phone paints while it parses (issue 12: no layout shift). A first paint that falls inside an
 * element whose content is centred or right-aligned shows it half-parsed: the header's sign-in button
 * without its text, the game page's "play for real" button with its icon alone in the middle. When
 * the rest arrives the element grows and what was painted moves, a layout shift. So the browser holds
 * its first paint until the parser has reached the end of the page's main content, which is a small
 * part of the document (10–42 KB of 27–73 KB here: the footer, the hydration data and the scripts
 * come after it). What arrives after the mark is appended below what was painted and moves nothing.
 */
import type { ReactNode } from 'react';

/** Chromium lets go of the hold when the target is inserted, not when it is closed: so an empty mark. */
const MAIN_PARSED_ID = 'page-main-parsed';

/**
 * The page's main content between the hold (a link React hoists into the head; a browser without
 * `rel="expect"` ignores it) and the mark that releases it.
 */
export function MainContent({ children }: { children: ReactNode }) {
  return (
    <>
      <link rel="expect" href={`#${MAIN_PARSED_ID}`} blocking="render" />
      <main className="layout__main">{children}</main>
      <span id={MAIN_PARSED_ID} hidden />
    </>
  );
}
