/**
 * The shared render for signed-in players (issue 12): a signed-in page cost 5–8 ms of server CPU to
 * render for each request, ten times a minimal React Router page, while players of one shape get the
 * same page but for a few values (player-view.ts). So a page is rendered once per shape for a
 * made-up player whose values can be found in its text, and each answer puts its own player's
 * values in their places: escaped as React writes text and attributes, or as React Router writes
 * the page's data script.
 *
 * What keeps it correct:
 * - A made-up render never sees a real player. Its account is the made-up one, the player's own
 *   calls (player-view.ts PLAYER_CALL_FIELDS) are answered with made-up answers, and every other
 *   call runs as a visitor's. A render that makes a call not known to answer the same for every
 *   player (SAME_FOR_EVERY_PLAYER) is not shared.
 * - The first request for a page is rendered for its own player, which tells which player calls
 *   the page makes; a page whose calls or answer cannot be shared is rendered per player.
 * - Every new template is checked: a second made-up player, with values of other lengths and with
 *   characters that need escaping, is rendered too, and must equal the first render filled with
 *   that player's values, byte for byte. A value the page shows in an unknown form, or a branch that
 *   a value decides, fails the check and the page goes on being rendered per player.
 * - A filled answer says so (`X-Page-Render: shared`), for the operator's logs and for the tests
 *   that hold it equal to the player's own render.
 * - Like the anonymous cache: keyed by everything the render reads of the request, each answer has
 *   its own CSP nonce, a template is at most PAGE_CACHE_MAX_AGE_MS old (the player's own values are
 *   read afresh for every answer) and an edit of sites or content is a new key.
 */
import { hash } from 'node:crypto';
import type { AccountInfo } from '#common/api-contract';
import type { InProcessAnswer } from '#common/load-context';
import { newCspNonce } from './csp';
import { isShareable, PAGE_CACHE_MAX_AGE_MS, type CachedEncoding } from './page-cache';
import { answerOf, cutTemplate, fillTemplate, type Template } from './player-page-text';
import {
  callMethod,
  formsOf,
  freeFieldsOf,
  PLAYER_CALL_FIELDS,
  shapeOf,
  templateOf,
  type FreeField,
  type PlayerView,
} from './player-view';

const MAX_TEMPLATES = 300;
const MAX_PAGES = 2_000;

/**
 * Public methods whose answer does not depend on who asks (checked in their handlers: none reads
 * the player). A made-up render runs them as a visitor. games.get is one unless it lists favourites.
 */
const SAME_FOR_EVERY_PLAYER = new Set([
  'metadata.getgeneralinfo',
  'metadata.get',
  'banners.get',
  'games.get',
  'games.getcategories',
  'games.getproviders',
  'games.getwinners',
  'loyalty.getcharacters',
  'account.getcurrencyrates',
  'sportsbook.getsports',
  'sportsbook.getevents',
  'sportsbook.gettournaments',
  'sportsbook.getevent',
]);

export type CallKind = 'player' | 'same-for-everyone' | 'other';

/** What a page's product-API call is to the shared render. */
export function kindOfCall(path: string, method: string): CallKind {
  if (method !== 'GET') return 'other';
  const name = callMethod(path);
  if (name in PLAYER_CALL_FIELDS) return 'player';
  if (!SAME_FOR_EVERY_PLAYER.has(name)) return 'other';
  if (name === 'games.get' && /favorites/i.test(new URL(path, 'http://in-process').searchParams.get('options') ?? ''))
    return 'other';
  return 'same-for-everyone';
}

/** The calls one render made, as the load context saw them. */
export class CallRecord {
  readonly playerCalls = new Set<string>();
  isShared = true;

  note(path: string, method: string): CallKind {
    const kind = kindOfCall(path, method);
    if (kind === 'player') this.playerCalls.add(path);
    if (kind === 'other') this.isShared = false;
    return kind;
  }
}

export interface RenderResult {
  response: Response;
  calls: CallRecord;
}

export interface PlayerPageRequest {
  /** Everything the render reads of the request but the player (page-cache.ts signedInPageKey). */
  pageKey: string;
  nonce: string;
  encoding: CachedEncoding;
  account: AccountInfo;
  /** Renders the request for its own player. */
  renderOwn: (nonce: string) => Promise<RenderResult>;
  /** One of the page's player calls, made with the player's session. */
  readPlayerCall: (path: string) => Promise<InProcessAnswer>;
  /** Renders the page for a made-up player. */
  renderFor: (view: PlayerView, nonce: string) => Promise<RenderResult>;
}

/** Whether a made-up render answered what a shared page may be made of, with the page's known player calls. */
function isShareableRender(result: RenderResult, playerCalls: readonly string[]): boolean {
  const made = [...result.calls.playerCalls].sort();
  return (
    isShareable(result.response) &&
    result.calls.isShared &&
    made.length === playerCalls.length &&
    made.every((path, index) => path === playerCalls[index])
  );
}

/**
 * A template for the view's shape: a made-up render cut at its forms, checked against a second
 * made-up player's render. Undefined when the page cannot be shared for this shape.
 *
 * A refresh whose render cuts into the very template checked before (same status, headers, parts
 * and places: the page's data did not change) keeps that template and its check, without the
 * second render: a refresh costs one render, not two, a second (issue 12: the two renders blocked
 * the event loop long enough to reach the p99 of the answers around them).
 */
async function makeTemplate(
  view: PlayerView,
  fields: readonly FreeField[],
  playerCalls: readonly string[],
  renderFor: PlayerPageRequest['renderFor'],
  previous?: Template,
): Promise<{ template?: Template; refusal?: string }> {
  const found = templateOf(view, fields, 'found');
  const placeholder = newCspNonce();
  const first = await renderFor(found, placeholder);
  const firstBody = await first.response.text();
  if (!isShareableRender(first, playerCalls)) return { refusal: NOT_SAME_FOR_EVERY_PLAYER };
  const { parts, places } = cutTemplate(firstBody, placeholder, formsOf(found, fields));
  const headers = [...first.response.headers];
  const digest = hash('sha256', JSON.stringify([first.response.status, first.response.statusText, headers, parts, places]));
  if (previous?.digest === digest) return { template: previous };
  const check = templateOf(view, fields, 'check');
  const second = await renderFor(check, placeholder);
  const secondBody = await second.response.text();
  if (!isShareableRender(second, playerCalls)) return { refusal: NOT_SAME_FOR_EVERY_PLAYER };
  if (fillTemplate(parts, places, formsOf(check, fields), placeholder) !== secondBody) {
    return { refusal: 'a second made-up player’s page is not the first one filled with its values' };
  }
  return {
    template: {
      status: first.response.status,
      statusText: first.response.statusText,
      headers,
      parts: parts.map((part) => Buffer.from(part, 'utf8')),
      places,
      placeholderLength: Buffer.byteLength(placeholder),
      digest,
    },
  };
}

const NOT_SAME_FOR_EVERY_PLAYER = 'the page made a call or gave an answer that is not the same for every player';

interface TemplateEntry {
  template: Promise<Template | undefined>;
  expiresAt: number;
  isMaking: boolean;
  isRefreshing?: boolean;
}

/** A page's player calls once its first render told them, or 'own' for a page rendered per player. */
interface PageFacts {
  playerCalls: string[] | 'own';
  learnedAt: number;
}

/** How long a page's facts hold, and how long a shape that could not be shared is rendered per player before trying again. */
const RELEARN_AFTER_MS = 60_000;

export interface PlayerPageCacheOptions {
  maxAgeMs?: number;
  /** Told when a page cannot be shared, and why. */
  onRefused?: (pageKey: string, reason: string) => void;
}

export function createPlayerPageCache({ maxAgeMs = PAGE_CACHE_MAX_AGE_MS, onRefused }: PlayerPageCacheOptions = {}) {
  const pages = new Map<string, PageFacts>();
  const templates = new Map<string, TemplateEntry>();

  function evictIfFull(now: number): void {
    if (templates.size < MAX_TEMPLATES) return;
    for (const [key, entry] of templates) if (entry.expiresAt <= now) templates.delete(key);
    if (templates.size >= MAX_TEMPLATES) templates.clear();
  }

  /** The template being made, with a refusal told to onRefused. */
  function reported(pageKey: string, making: ReturnType<typeof makeTemplate>): Promise<Template | undefined> {
    return making.then(
      ({ template, refusal }) => {
        if (refusal) onRefused?.(pageKey, refusal);
        return template;
      },
      (error: unknown) => {
        onRefused?.(pageKey, error instanceof Error ? error.message : String(error));
        return undefined;
      },
    );
  }

  /** A new entry for key; one that cannot be shared stays so for RELEARN_AFTER_MS. */
  function startEntry(key: string, making: Promise<Template | undefined>, now: number): TemplateEntry {
    evictIfFull(now);
    const entry: TemplateEntry = { template: making, expiresAt: now + maxAgeMs, isMaking: true };
    templates.set(key, entry);
    void making.then((template) => {
      entry.isMaking = false;
      entry.expiresAt = Date.now() + (template ? maxAgeMs : RELEARN_AFTER_MS);
    });
    return entry;
  }

  /**
   * The template for key: a fresh one, or the one being made; past its age, the old one once more
   * while exactly one new one is made to replace it.
   */
  async function templateFor(
    key: string,
    makeOne: (previous?: Template) => Promise<Template | undefined>,
  ): Promise<Template | undefined> {
    const now = Date.now();
    const current = templates.get(key);
    if (current && (current.expiresAt > now || current.isMaking || current.isRefreshing)) return current.template;
    const old = current && (await current.template);
    if (current && old) {
      current.isRefreshing = true;
      const next = makeOne(old);
      void next.then((template) => {
        if (templates.get(key) !== current) return;
        if (template) templates.set(key, { template: next, expiresAt: Date.now() + maxAgeMs, isMaking: false });
        else templates.delete(key);
      });
      return old;
    }
    return startEntry(key, makeOne(), now).template;
  }

  /** The page's player calls, learnt from its first render for a player of its own. */
  function factsOf(pageKey: string): PageFacts | undefined {
    const facts = pages.get(pageKey);
    return facts && Date.now() - facts.learnedAt < RELEARN_AFTER_MS ? facts : undefined;
  }

  return {
    async answer(request: PlayerPageRequest): Promise<Response> {
      const facts = factsOf(request.pageKey);
      if (facts === undefined || facts.playerCalls === 'own') {
        const own = await request.renderOwn(request.nonce);
        if (facts === undefined) {
          if (pages.size >= MAX_PAGES) pages.clear();
          const isShared = isShareable(own.response) && own.calls.isShared;
          pages.set(request.pageKey, {
            playerCalls: isShared ? [...own.calls.playerCalls].sort() : 'own',
            learnedAt: Date.now(),
          });
        }
        return own.response;
      }
      const { playerCalls } = facts;
      const answers = await Promise.all(playerCalls.map((path) => request.readPlayerCall(path)));
      const view: PlayerView = {
        account: request.account,
        calls: Object.fromEntries(playerCalls.map((path, index) => [path, answers[index]!])),
      };
      const fields = freeFieldsOf(view);
      const key = JSON.stringify([request.pageKey, shapeOf(view, fields)]);
      const template = await templateFor(key, (previous) =>
        reported(request.pageKey, makeTemplate(view, fields, playerCalls, request.renderFor, previous)),
      );
      if (!template) return (await request.renderOwn(request.nonce)).response;
      return answerOf(template, formsOf(view, fields), request.nonce, request.encoding);
    },
  };
}

export type PlayerPageCache = ReturnType<typeof createPlayerPageCache>;
