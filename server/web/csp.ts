/**
 * The Content-Security-Policy of every answer (issue 11): scripts run only with this answer's
 * nonce (and what those scripts load, 'strict-dynamic'), nothing is embedded as an object, the base
 * address cannot be moved, only the site itself may frame its pages, and frames show the site or
 * the game aggregator. A fresh nonce per answer,
 * so a nonce read from one page is useless on the next.
 *
 * Styles: style elements need the nonce or come from the site; style attributes stay allowed
 * (style-src-attr), because React renders computed sizes and rotations as style attributes.
 */
import { pooledRandomBytes } from './random-pool';

export function newCspNonce(): string {
  return pooledRandomBytes(18).toString('base64');
}

/** The policy of each mode and frame origins, split where the nonce goes: made once, not per answer (issue 12). */
const POLICIES_AROUND_NONCE = new Map<string, string[]>();
const NONCE_PLACE = '\u0000';

export function contentSecurityPolicy(
  nonce: string,
  mode: 'development' | 'production' | 'test',
  frameOrigins: readonly string[] = [],
): string {
  const key = `${mode} ${frameOrigins.join(' ')}`;
  let aroundNonce = POLICIES_AROUND_NONCE.get(key);
  if (!aroundNonce) {
    aroundNonce = policy(NONCE_PLACE, mode, frameOrigins).split(NONCE_PLACE);
    // The frame origins are the game aggregator's: a handful over a process's life.
    if (POLICIES_AROUND_NONCE.size < 16) POLICIES_AROUND_NONCE.set(key, aroundNonce);
  }
  return aroundNonce.join(nonce);
}

function policy(nonce: string, mode: 'development' | 'production' | 'test', frameOrigins: readonly string[]): string {
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    // Vite's hot reload talks over a WebSocket in development.
    mode === 'development' ? "connect-src 'self' ws: wss:" : "connect-src 'self'",
    // The service worker: under 'strict-dynamic' script-src no longer names the site itself.
    "worker-src 'self'",
    // The game frame: our own game clients, and the game aggregator's (issue 15) when one is connected.
    ['frame-src', "'self'", ...frameOrigins].join(' '),
    "frame-ancestors 'self'",
    "object-src 'none'",
    "base-uri 'none'",
  ].join('; ');
}
