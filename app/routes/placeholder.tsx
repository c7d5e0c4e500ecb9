/** /responsible-game and /bets/* have no page of their own (spec §2): they lead to the profile page that has. */
import { redirect } from 'react-router';
import type { Route } from './+types/placeholder';
import { PLACEHOLDER_TARGETS } from '#common/route-table';
import { DEFAULT_LOCALE, localeFromPath, localizePath, stripLocalePrefix } from '#common/locale';

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const locale = localeFromPath(url.pathname) ?? DEFAULT_LOCALE;
  const name = stripLocalePrefix(url.pathname).startsWith('/bets') ? 'bets-all' : 'responsible-game';
  throw redirect(localizePath(PLACEHOLDER_TARGETS[name] ?? '/', locale));
}

export default function Placeholder() {
  return null;
}
