/**
 * The translation tables this runtime holds, by version (issue 12: pages carry only the version).
 * On the server the root loader puts in the table it read; in the browser the table is fetched
 * once per version from its own address (cached for ever by the HTTP cache) before the page
 * hydrates or a navigation to another locale renders.
 */
import type { Locale } from '#common/locale';
import { translationsUrl, type VersionedTranslations } from '#common/translations';

type Table = Readonly<Record<string, string>>;

/**
 * In the browser a few versions (a locale switch, an operator's edit while the page is open); on
 * the server one per site and locale in use, kept from the loader to the render of each page.
 */
const MAX_VERSIONS = typeof window === 'undefined' ? 64 : 8;
const tables = new Map<string, Table>();
const loading = new Map<string, Promise<Table>>();

export function rememberTranslations({ version, table }: VersionedTranslations): void {
  // Re-inserted on every use, so the versions in use are the last to go.
  tables.delete(version);
  tables.set(version, table);
  for (const oldest of tables.keys()) {
    if (tables.size <= MAX_VERSIONS) break;
    tables.delete(oldest);
  }
}

const EMPTY: Table = Object.freeze({});

/** The table of a version; empty (texts show their keys) only if it was never loaded. */
export function translationsFor(version: string | undefined): Table {
  return (version !== undefined && tables.get(version)) || EMPTY;
}

const RETRIES = 3;

/** Loads a version into this runtime once, however many callers ask; retries a failed load. */
export function loadTranslations(locale: Locale, version: string): Promise<Table> {
  const known = tables.get(version);
  if (known) return Promise.resolve(known);
  let pending = loading.get(version);
  if (!pending) {
    pending = fetchTable(locale, version).finally(() => loading.delete(version));
    loading.set(version, pending);
  }
  return pending;
}

async function fetchTable(locale: Locale, version: string): Promise<Table> {
  let lastError: unknown;
  for (let attempt = 0; attempt < RETRIES; attempt++) {
    try {
      const response = await fetch(translationsUrl(locale, version));
      if (!response.ok) throw new Error(`translations answered ${response.status}`);
      const table = (await response.json()) as Table;
      rememberTranslations({ version, table });
      return table;
    } catch (error) {
      lastError = error;
      if (attempt + 1 < RETRIES) await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
    }
  }
  throw lastError;
}
