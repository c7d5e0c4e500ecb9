/** /dev/outbox: the messages the platform sent, for development and tests (never in production unless enabled). */
import { Hono } from 'hono';
import type { AppEnv } from './app-env';
import { escapeXml } from './brand';

export function createDevOutboxRoutes() {
  const routes = new Hono<AppEnv>();
  routes.get('/outbox', async (c) => {
    const messages = await c.get('services').messaging.latest(100, c.req.query('recipient') || undefined);
    if (c.req.header('accept')?.includes('application/json')) return c.json({ data: messages });
    const rows = messages
      .map(
        (m) =>
          `<article data-recipient="${escapeXml(m.recipient)}"><h2>${escapeXml(m.subject)}</h2><p><b>${m.channel}</b> → ${escapeXml(m.recipient)} · ${m.createdAt.toISOString()}</p><pre>${escapeXml(m.body)}</pre></article>`,
      )
      .join('');
    return c.html(
      `<!doctype html><meta charset="utf-8"><title>Outbox</title><style nonce="${c.get('cspNonce')}">body{font-family:system-ui;max-width:800px;margin:2rem auto;background:#111;color:#eee}article{border-bottom:1px solid #333;padding:1rem 0}pre{white-space:pre-wrap}</style><h1>Outbox</h1>${rows || '<p>No messages.</p>'}`,
    );
  });
  return routes;
}
