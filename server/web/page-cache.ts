/**
 * The rendered-output cache for anonymous visitors (issue 12): a page a visitor without a session
 * gets is the same for every such visitor asking the same address in the same way, so one render
 * answers all of them for a second.
 *
 * What keeps it correct:
 * - Only anonymous GET document requests, and the key holds everything the render reads from the
 *   request: origin (site and canonical links), path and query, the locale cookie, the locale
 *   Accept-Language names (the root's locale choice; the header itself, which browsers write in many
 *   ways for one language, would split one page into many renders), whether the client is a crawler (the whole document at once),
 *   whether its country is blocked, and the versions of the sites and content caches, so an
 *   operator's edit (change notification) is never answered from an older render.
 * - Each answer gets its own CSP nonce: the shared render is made with a placeholder nonce that is
 *   replaced by the answer's nonce, so a nonce still never repeats across answers.
 * - Only a 200 HTML answer that sets no cookie is shared; anything else goes to its own request.
 * - Data that changes without a notification (the game catalogue, banners by date) is at most
 *   PAGE_CACHE_MAX_AGE_MS old plus one render: past its age a render is still answered while one
 *   new render runs behind it, so no visitor waits for a render after the first. Cookies Hono sets
 *   (the visitor id) are added per answer, after this.
 */
import { isbot } from 'isbot';
import { localeFromAcceptLanguage } from '#common/locale';
import { newCspNonce } from './csp';
import { compressPieces, gzipJoin, type CompressedPieces } from './gzip-pieces';
import { asBody, varyOnAcceptEncoding } from './compression';

/** How long one render answers every anonymous visitor of the same key. */
export const PAGE_CACHE_MAX_AGE_MS = 1_000;
const MAX_ENTRIES = 500;

export interface AnonymousRequestFacts {
  method: string;
  url: URL;
  /** No session was presented or it names no open session. */
  isAnonymous: boolean;
  isCountryBlocked: boolean;
  cookieLocale: string | undefined;
  acceptLanguage: string | undefined;
  userAgent: string | undefined;
  siteId: string;
  /** The sites' and content caches' versions: they change with every edit. */
  dataVersion: string;
}

interface Snapshot {
  status: number;
  statusText: string;
  headers: [string, string][];
  /**
   * The page's UTF-8 bytes cut at each placeholder nonce. Kept as bytes, not text: building an
   * answer from a 100 KB string made undici re-check and re-encode it on every answer, a fifth
   * of a busy server's time (issue 12).
   */
  parts: Buffer[];
  /** The placeholder nonce's length: every answer's nonce has it (newCspNonce). */
  placeholderLength: number;
  /** The parts compressed, made on the first gzip answer and reused by every later one. */
  gzipPieces?: CompressedPieces;
}

/** How an answer is encoded: gzip when the client takes it, built from the snapshot's compressed parts. */
export type CachedEncoding = 'gzip' | 'identity';

function cutAtPlaceholder(body: string, placeholder: string): Buffer[] {
  return body.split(placeholder).map((part) => Buffer.from(part, 'utf8'));
}

/** The cache key, or undefined when this request must be rendered for itself. */
export function anonymousPageKey(facts: AnonymousRequestFacts): string | undefined {
  if (facts.method !== 'GET' || !facts.isAnonymous || facts.url.pathname.endsWith('.data')) return undefined;
  return requestKey(facts);
}

/**
 * The key of a signed-in player's page document (player-pages.ts): the same request details, for
 * the player's shape to be added to.
 */
export function signedInPageKey(facts: AnonymousRequestFacts): string | undefined {
  if (facts.method !== 'GET' || facts.isAnonymous || facts.url.pathname.endsWith('.data')) return undefined;
  return requestKey(facts);
}

/** Everything a render reads of the request but its player. */
function requestKey(facts: AnonymousRequestFacts): string {
  return JSON.stringify([
    facts.siteId,
    facts.dataVersion,
    facts.url.origin,
    facts.url.pathname,
    facts.url.search,
    facts.cookieLocale ?? '',
    // The render reads Accept-Language only for the locale it names (the root's choice, spec §2):
    // browsers' many ways of saying English share one render instead of one each.
    localeFromAcceptLanguage(facts.acceptLanguage) ?? '',
    facts.userAgent ? isbot(facts.userAgent) : false,
    facts.isCountryBlocked,
  ]);
}

/** A 200 HTML page that sets no cookie and does not ask to be kept private. */
export function isShareable(response: Response): boolean {
  return (
    response.status === 200 &&
    !response.headers.has('set-cookie') &&
    (response.headers.get('content-type') ?? '').startsWith('text/html') &&
    !/\b(private|no-store)\b/i.test(response.headers.get('cache-control') ?? '')
  );
}

function answerOf(snapshot: Snapshot, nonce: string, encoding: CachedEncoding): Response {
  const nonceBytes = Buffer.from(nonce, 'utf8');
  if (encoding === 'gzip' && nonceBytes.length === snapshot.placeholderLength && isWorthCompressing(snapshot)) {
    return gzipAnswerOf(snapshot, nonceBytes);
  }
  const pieces = snapshot.parts.flatMap((part, index) => (index === 0 ? [part] : [nonceBytes, part]));
  return new Response(Buffer.concat(pieces), {
    status: snapshot.status,
    statusText: snapshot.statusText,
    headers: snapshot.headers,
  });
}

/** A page of some size; a redirect's or an error's few bytes go as they are (the middleware decides). */
function isWorthCompressing(snapshot: Snapshot): boolean {
  const type = snapshot.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  return /^\s*text\/html\b/i.test(type) && snapshot.parts.reduce((sum, part) => sum + part.length, 0) >= 1024;
}

/**
 * The page compressed without compressing it again: its parts were compressed once, and only the
 * answer's nonce is added between them (gzip-pieces.ts). The compression middleware passes an
 * answer that names its encoding.
 */
function gzipAnswerOf(snapshot: Snapshot, nonceBytes: Buffer): Response {
  snapshot.gzipPieces ??= compressPieces(snapshot.parts, snapshot.placeholderLength);
  const body = gzipJoin(snapshot.gzipPieces, nonceBytes);
  const headers = new Headers(snapshot.headers);
  headers.set('Content-Encoding', 'gzip');
  headers.set('Content-Length', String(body.byteLength));
  varyOnAcceptEncoding(headers);
  return new Response(asBody(body), { status: snapshot.status, statusText: snapshot.statusText, headers });
}

export function createAnonymousPageCache(maxAgeMs = PAGE_CACHE_MAX_AGE_MS) {
  const entries = new Map<string, Entry>();

  function evictIfFull(now: number): void {
    if (entries.size < MAX_ENTRIES) return;
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
    if (entries.size >= MAX_ENTRIES) entries.clear();
  }

  return {
    /**
     * The answer for key: a render in the last maxAgeMs, or a new one (one at a time per key, the
     * others wait for it). render(nonce) renders the page with that CSP nonce.
     */
    async answer(
      key: string,
      nonce: string,
      render: (nonce: string) => Promise<Response>,
      encoding: CachedEncoding = 'identity',
    ): Promise<Response> {
      const now = Date.now();
      const current = entries.get(key);
      if (current && (current.expiresAt > now || !(await isSettled(current.snapshot)))) {
        // Fresh, or its render still runs: wait for that one render rather than start another.
        const snapshot = await current.snapshot;
        return snapshot ? answerOf(snapshot, nonce, encoding) : render(nonce);
      }
      const old = current && (await current.snapshot);
      if (current && old) {
        // Past its age: answer it once more while one new render replaces it.
        if (!current.isRefreshing) {
          current.isRefreshing = true;
          refresh(key, current, render);
        }
        return answerOf(old, nonce, encoding);
      }
      const { rendered, shared } = startRender(render);
      evictIfFull(now);
      entries.set(key, { snapshot: shared, expiresAt: now + maxAgeMs });
      shared.then((snapshot) => {
        if (!snapshot && entries.get(key)?.snapshot === shared) entries.delete(key);
      });
      return answerOf((await rendered).snapshot, nonce, encoding);
    },
  };

  /** Replaces an old entry once its new render is done; until then the old one is answered. */
  function refresh(key: string, old: Entry, render: (nonce: string) => Promise<Response>): void {
    const { shared } = startRender(render);
    shared.then((snapshot) => {
      if (entries.get(key) !== old) return;
      if (snapshot) entries.set(key, { snapshot: shared, expiresAt: Date.now() + maxAgeMs });
      else entries.delete(key);
    });
  }
}

interface Entry {
  snapshot: Promise<Snapshot | undefined>;
  expiresAt: number;
  isRefreshing?: boolean;
}

/** Renders with a placeholder nonce: the caller's own answer, and the snapshot when it may be shared. */
function startRender(render: (nonce: string) => Promise<Response>) {
  const placeholder = newCspNonce();
  const rendered = render(placeholder).then(async (response) => ({
    response,
    snapshot: {
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers],
      parts: cutAtPlaceholder(await response.text(), placeholder),
      placeholderLength: Buffer.byteLength(placeholder),
    } satisfies Snapshot,
  }));
  const shared = rendered.then(
    ({ response, snapshot }) => (isShareable(response) ? snapshot : undefined),
    () => undefined,
  );
  return { rendered, shared };
}

/** Whether a render has finished (a finished promise wins the race against a fresh one). */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  const pending = Symbol('pending');
  return (await Promise.race([promise, Promise.resolve(pending)])) !== pending;
}

export type AnonymousPageCache = ReturnType<typeof createAnonymousPageCache>;
