/**
 * Campaign popups (spec §2 campaign dialog, §4 "after login … the campaign popup is queued", §6
 * campaign popups for signed-in players, §7 popups.get): the site's `popups` content in the
 * visitor's language, each with an audience (anonymous, signed_in, all; signed_in when unsaid,
 * as §6 has it), a trigger (any visit, the first visit, right after sign-in, a signed-in player
 * who has never deposited), an optional window (starts_at, finished_at) and a priority. The one
 * that applies with the highest priority is answered, or null.
 */
import { z } from 'zod';
import { POPUP_AUDIENCES, POPUP_TRIGGERS, type PopupEvent, type PopupView } from '#common/contract/popups';
import type { Locale } from '#common/locale';
import type { ContentEntry, ContentService } from '../content';

export interface PopupServiceDeps {
  content: Pick<ContentService, 'list'>;
  /** The player's successful deposits (the no_deposit trigger). */
  depositCount: (userId: number) => Promise<number>;
  now?: () => Date;
}

const optionalText = z.string().max(2000).nullish();
const moment = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), 'not a date')
  .nullish();

/** A popup entry as operators write it; one that does not parse is never shown. */
const popupEntrySchema = z.object({
  audience: z.enum(POPUP_AUDIENCES).default('signed_in'),
  trigger: z.enum(POPUP_TRIGGERS).default('any'),
  priority: z.number().finite().default(0),
  starts_at: moment,
  finished_at: moment,
  title: z.string().min(1).max(200),
  text: z.string().max(5000).default(''),
  button: optionalText,
  link: optionalText,
  image: optionalText,
});

type PopupEntry = z.infer<typeof popupEntrySchema>;

const CONTENT_PAGE = 100;

export interface PopupVisitor {
  siteId: string;
  locale: Locale;
  /** 0 for an anonymous visitor. */
  uid: number;
  event: PopupEvent;
}

export function createPopupService(deps: PopupServiceDeps) {
  const now = deps.now ?? (() => new Date());

  async function candidates(siteId: string, locale: Locale): Promise<{ entry: ContentEntry; popup: PopupEntry }[]> {
    const found: { entry: ContentEntry; popup: PopupEntry }[] = [];
    for (let offset = 0; ; offset += CONTENT_PAGE) {
      const page = await deps.content.list({ siteId, collection: 'popups', locale, offset, limit: CONTENT_PAGE });
      for (const entry of page.entries) {
        const parsed = popupEntrySchema.safeParse(entry.data);
        if (parsed.success && entry.publishedAt !== null) found.push({ entry, popup: parsed.data });
      }
      if (page.entries.length < CONTENT_PAGE || offset + CONTENT_PAGE >= page.total) return found;
    }
  }

  return {
    async forVisitor(visitor: PopupVisitor): Promise<PopupView | null> {
      const moment = now();
      const live = (await candidates(visitor.siteId, visitor.locale))
        .filter(({ popup }) => isInWindow(popup, moment) && isForAudience(popup, visitor.uid) && isTriggeredBy(popup, visitor))
        .sort((a, b) => b.popup.priority - a.popup.priority || a.entry.id - b.entry.id);
      // The deposit count is read only when a popup asks for it, and at most once.
      let hasDeposited: boolean | undefined;
      for (const candidate of live) {
        if (candidate.popup.trigger === 'no_deposit') {
          hasDeposited ??= (await deps.depositCount(visitor.uid)) > 0;
          if (hasDeposited) continue;
        }
        return popupView(candidate.entry, candidate.popup);
      }
      return null;
    },
  };
}

export type PopupService = ReturnType<typeof createPopupService>;

function isInWindow(popup: PopupEntry, moment: Date): boolean {
  const starts = popup.starts_at ? Date.parse(popup.starts_at) : -Infinity;
  const ends = popup.finished_at ? Date.parse(popup.finished_at) : Infinity;
  return starts <= moment.getTime() && moment.getTime() < ends;
}

function isForAudience(popup: PopupEntry, uid: number): boolean {
  if (popup.audience === 'all') return true;
  return popup.audience === 'signed_in' ? uid > 0 : uid === 0;
}

function isTriggeredBy(popup: PopupEntry, visitor: PopupVisitor): boolean {
  switch (popup.trigger) {
    case 'any':
      return true;
    case 'first_visit':
      return visitor.event === 'first_visit';
    case 'after_login':
      return visitor.event === 'login' && visitor.uid > 0;
    case 'no_deposit':
      return visitor.uid > 0;
  }
}

function popupView(entry: ContentEntry, popup: PopupEntry): PopupView {
  return {
    id: entry.id,
    sysname: entry.slug,
    audience: popup.audience,
    trigger: popup.trigger,
    title: popup.title,
    text: popup.text,
    button: popup.button ?? null,
    link: popup.link ?? null,
    image: popup.image ?? null,
  };
}
