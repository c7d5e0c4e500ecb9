/**
 * Back-office routes for bonuses (issue 13 "the back-office API (grant, cancel)"), mounted under
 * /backoffice/bonuses behind the operator token check of backoffice.ts. A grant names a template
 * of the site's programme and is idempotent by the operator's grant key; grants and cancels are
 * recorded in the audit log under the operator's name.
 *
 *   POST /backoffice/bonuses  {"user_id": 12, "template_id": "promo10", "grant_key": "ticket-881",
 *        "activate": true, "deposit_amount": "50.00", "reason": "..."}
 *   GET  /backoffice/bonuses?user_id=12
 *   POST /backoffice/bonuses/{id}/cancel  {"reason": "..."}
 */
import { z } from 'zod';
import { amountToMinor } from '#common/money';
import { invalidParameter as invalid } from '#common/parameter-errors';
import { BonusGrantError } from '../modules/bonuses';
import { backofficeRouter, operatorBody, playerOfSite } from './backoffice-routes';

const grantSchema = z.object({
  user_id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  template_id: z.string().min(1).max(64),
  grant_key: z.string().min(1).max(100),
  activate: z.boolean().default(false),
  deposit_amount: z
    .string()
    .regex(/^\d{1,12}(\.\d{1,2})?$/)
    .optional(),
  reason: z.string().max(500).optional(),
});

export function createBackofficeBonusRoutes() {
  // A template the site's programme cannot grant names the template.
  const routes = backofficeRouter((error) =>
    error instanceof BonusGrantError ? invalid('template_id', error.message) : undefined,
  );

  routes.post('/', async (c) => {
    const body = await operatorBody(c, grantSchema);
    const site = c.get('site');
    const user = await playerOfSite(c, body.user_id);
    const granted = await c.get('services').bonuses.grantByOperator({
      siteId: site.id,
      userId: user.id,
      currency: user.currency,
      templateId: body.template_id,
      depositMinor: body.deposit_amount ? amountToMinor(body.deposit_amount) : undefined,
      operator: c.get('operator'),
      grantKey: body.grant_key,
      activate: body.activate,
      reason: body.reason?.trim() || 'granted by the operator',
    });
    return c.json({ data: { id: granted.row.id, status: granted.row.status, is_new: granted.isNew } }, granted.isNew ? 201 : 200);
  });

  routes.get('/', async (c) => {
    const userId = Number(c.req.query('user_id'));
    if (!Number.isSafeInteger(userId) || userId <= 0) throw invalid('user_id');
    return c.json({ data: await c.get('services').bonuses.listForOperator(c.get('site').id, userId) });
  });

  routes.post('/:id/cancel', async (c) => {
    const id = Number(c.req.param('id'));
    if (!Number.isSafeInteger(id) || id <= 0) throw invalid('id');
    const body = (await c.req.json().catch(() => ({}))) as { reason?: unknown };
    const reason =
      typeof body.reason === 'string' && body.reason.trim() ? body.reason.trim().slice(0, 500) : 'cancelled by the operator';
    const row = await c.get('services').bonuses.cancelByOperator(c.get('site').id, id, c.get('operator'), reason);
    return c.json({ data: { id: row.id, status: row.status } });
  });

  return routes;
}
