/** GET /nfx/cms-config/{locale}: the configuration sections of spec §7 for the request's site. */
import { Hono } from 'hono';
import { ApiError } from '#common/errors';
import { isLocale } from '#common/locale';
import type { InProcessAnswer } from '#common/load-context';
import type { Site } from '../modules/sites';
import type { Services } from '../services';
import type { AppEnv } from './app-env';

/** The route's answer, shared with the page renderer's in-process reads. */
export async function siteConfigAnswer(services: Services, site: Site, locale: string): Promise<InProcessAnswer> {
  if (!isLocale(locale) || !site.locales.includes(locale)) {
    const error = new ApiError('InvalidParameterException', 'Unknown locale', { field: 'locale' });
    return { status: 404, body: { error: error.toBody() } };
  }
  return { status: 200, body: await services.content.getConfig(site.id, locale) };
}

export function createConfigRoutes() {
  const routes = new Hono<AppEnv>();
  routes.get('/cms-config/:locale', async (c) => {
    const answer = await siteConfigAnswer(c.get('services'), c.get('site'), c.req.param('locale'));
    if (answer.status === 200) c.header('Cache-Control', 'public, max-age=30');
    return c.json(answer.body as object, answer.status as 200);
  });
  return routes;
}
