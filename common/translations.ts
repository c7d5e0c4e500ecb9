/**
 * Translation tables travel beside the pages, not inside them (issue 12): a page names its table's
 * version, and the browser loads each version once, from an address that never changes meaning.
 */
import type { Locale } from './locale';

export interface VersionedTranslations {
  /** Changes whenever any text of the table changes. */
  version: string;
  table: Readonly<Record<string, string>>;
}

export const TRANSLATIONS_PATH = '/platform/translations';

/** Where a table version is served: the version in the address makes it cacheable for ever. */
export function translationsUrl(locale: Locale, version: string): string {
  return `${TRANSLATIONS_PATH}/${locale}.json?v=${encodeURIComponent(version)}`;
}
