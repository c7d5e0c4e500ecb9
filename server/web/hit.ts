/** GET /hit: records a visit with referrer, campaign track id and fraud-check session (spec §7). */
import { Hono } from 'hono';
import type { AppEnv } from './app-env';

function bounded(value: string | undefined, max: number): string | null {
  if (!value) return null;
  return value.slice(0, max);
}

export function createHitRoutes() {
  const routes = new Hono<AppEnv>();
  routes.get('/', async (c) => {
    const identity = c.get('identity');
    await c.get('services').analytics.recordHit({
      siteId: c.get('site').id,
      visitorId: identity.visitorId,
      uid: identity.uid,
      // The site sends document.referrer as `referrer`; spec §7 names it `referer`, so both are
      // read. The Referer header is the fallback.
      referrer: bounded(c.req.query('referrer') ?? c.req.query('referer') ?? c.req.header('referer'), 2048),
      trackId: bounded(c.req.query('track_id'), 256),
      seonSession: bounded(c.req.query('seon_session'), 8192),
      userAgent: bounded(identity.userAgent, 512),
    });
    c.header('Cache-Control', 'no-store');
    return c.json({ data: 1 });
  });
  return routes;
}
