/**
 * The origin to put in links we send (e-mails, webhooks): the site's configured public origin,
 * else the request's origin when its host is one of the site's hosts. A forged Host header can
 * therefore never make a password-reset link point elsewhere.
 */
import type { Site } from '../modules/sites';

export function siteOrigin(site: Site, requestUrl: string): string {
  const configured = site.settings.public_origin;
  if (typeof configured === 'string' && configured) return configured.replace(/\/$/, '');
  const url = new URL(requestUrl);
  if (site.hosts.includes(url.hostname)) return url.origin;
  return `${url.protocol}//${site.hosts[0] ?? '127.0.0.1'}${url.port ? `:${url.port}` : ''}`;
}
