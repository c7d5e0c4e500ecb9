/**
 * Every route of spec §2 twice: English without prefix (name___en) and Italian under /it
 * (name___it), inside the site layout; then the unmatched-route catch-alls.
 */
import { type RouteConfig, layout, route } from '@react-router/dev/routes';
import { GAME_CLIENT_ROUTES, ROUTE_TABLE } from '../common/route-table';
import { DEFAULT_LOCALE, LOCALES, localizedRouteName } from '../common/locale';

function localizedRoutes() {
  return LOCALES.flatMap((locale) => {
    const prefix = locale === DEFAULT_LOCALE ? '' : locale;
    return [...ROUTE_TABLE, ...GAME_CLIENT_ROUTES].map((entry) => {
      const path = [prefix, entry.path].filter(Boolean).join('/');
      return route(path || '/', entry.file, { id: localizedRouteName(entry.name, locale) });
    });
  });
}

export default [
  layout('routes/site-layout.tsx', { id: 'site' }, [
    ...localizedRoutes(),
    ...LOCALES.map((locale) =>
      route(locale === DEFAULT_LOCALE ? '*' : `${locale}/*`, 'routes/unmatched.tsx', {
        id: localizedRouteName('unmatched', locale),
      }),
    ),
  ]),
] satisfies RouteConfig;
