/** GET /nfx/cms-config/{locale}: the configuration sections of spec §7 for the request's site. */
import { Hono } from 'hono';
import { ApiError } from '#common/errors';
import { isLocale } from '#common/locale';
import type { AppEnv } from './app-env';

export function createConfigRoutes() {
  const routes = new Hono<AppEnv>();
  routes.get('/cms-config/:locale', async (c) => {
    const locale = c.req.param('locale');
    const site = c.get('site');
    if (!isLocale(locale) || !site.locales.includes(locale)) {
      const error = new ApiError('InvalidParameterException', 'Unknown locale', { field: 'locale' });
      return c.json({ error: error.toBody() }, 404);
    }
    const sections = await c.get('services').content.getConfig(site.id, locale);
    c.header('Cache-Control', 'public, max-age=30');
    return c.json(sections);
  });
  return routes;
}
