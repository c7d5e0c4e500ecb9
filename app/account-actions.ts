import type { Locale } from '#common/locale';
import { browserApi } from '~/api/client';

/** Logout calls the server, then goes to the index by full page load (spec §4). */
export async function signOut(locale: Locale, home: string): Promise<void> {
  try {
    await browserApi(locale).call('auth.logout');
  } finally {
    window.location.assign(home);
  }
}
