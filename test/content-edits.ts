/**
 * An operator's edit made straight in the database (SQL or a back-office tool), without calling any
 * service: what the caches must learn of through the change notification (issue 12).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../server/db/client';
import { contentEntries } from '../server/db/schema';
import type { Locale } from '#common/locale';

/** Sets one text of a site's translation table in the database. */
export async function editTranslationInDatabase(
  db: Database,
  edit: { siteId: string; locale: Locale; key: string; text: string },
): Promise<void> {
  await db
    .update(contentEntries)
    .set({ data: sql`jsonb_set(${contentEntries.data}, ${`{${edit.key}}`}, to_jsonb(${edit.text}::text))` })
    .where(
      and(
        eq(contentEntries.siteId, edit.siteId),
        eq(contentEntries.collection, 'translations'),
        eq(contentEntries.locale, edit.locale),
        eq(contentEntries.slug, 'common'),
      ),
    );
}
