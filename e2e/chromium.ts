/**
 * Debian's Chromium as the browser tests and the benches start it: where it is, and the switches
 * this workplace needs. No test framework here, so the benches can share it.
 */
import { fileURLToPath } from 'node:url';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Parts of Chromium's own window that no page and no test ever sees. Headless Chromium 156 still
 * builds a whole browser window for each context, and with it the address bar's suggestion popup:
 * a WebUI app (Lit, a few dozen modules) in a renderer process of its own, loaded up front. That
 * cost more than the page under test did: 5.0–6.7 s of the machine's CPU for each fresh context and
 * page load of `/` or `/gamehall` with it, 2.7–3.3 s without it (issue 12: the suite's time).
 */
const UNSEEN_BROWSER_UI = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup', 'PreloadTopChromeWebUI'];

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${UNSEEN_BROWSER_UI.join(',')}`,
];

/**
 * What Playwright starts: the launcher merges our --disable-features with Playwright's own (Chromium
 * keeps only the last one given), then starts CHROMIUM_PATH. A process started directly with
 * CHROMIUM_FLAGS and no other feature list (the Lighthouse bench) needs no launcher.
 */
export const CHROMIUM_LAUNCHER = fileURLToPath(new URL('./chromium-launcher.sh', import.meta.url));
