/** /responsible-game has no page of its own (spec §2): it leads to the profile page that has. */
import { redirect } from 'react-router';
import type { Route } from './+types/placeholder';
import { PLACEHOLDER_TARGETS } from '#common/route-table';
import { DEFAULT_LOCALE, localeFromPath, localizePath } from '#common/locale';

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const locale = localeFromPath(url.pathname) ?? DEFAULT_LOCALE;
  throw redirect(localizePath(PLACEHOLDER_TARGETS['responsible-game'] ?? '/', locale));
}

export default function Placeholder() {
  return null;
}
