/**
 * Back-office route for cashbacks, mounted under /backoffice/cashbacks behind the operator token
 * check of backoffice.ts: an operator gives a player the cashback of the last completed period
 * for a net loss they assessed (the programme's percent, minimum and cap apply). One per player
 * and period, like the period job's; recorded in the audit log under the operator's name.
 *
 *   POST /backoffice/cashbacks  {"user_id": 12, "net_loss": "50.00", "reason": "..."}
 */
import { z } from 'zod';
import { amountToMinor, minorToAmount } from '#common/money';
import { backofficeRouter, operatorBody, playerOfSite } from './backoffice-routes';

const grantSchema = z.object({
  user_id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  net_loss: z.string().regex(/^\d{1,12}(\.\d{1,2})?$/),
  reason: z.string().max(500).optional(),
});

export function createBackofficeCashbackRoutes() {
  const routes = backofficeRouter();

  routes.post('/', async (c) => {
    const body = await operatorBody(c, grantSchema);
    const site = c.get('site');
    const user = await playerOfSite(c, body.user_id);
    const { row, isNew } = await c.get('services').cashbacks.grantByOperator({
      siteId: site.id,
      userId: user.id,
      currency: user.currency,
      netLossMinor: amountToMinor(body.net_loss),
      operator: c.get('operator'),
      reason: body.reason?.trim() || 'granted by the operator',
    });
    const data = {
      id: row.id,
      status: row.status,
      amount: minorToAmount(row.amountMinor),
      currency: row.currency,
      start_date: row.periodStart.toISOString(),
      end_date: row.periodEnd.toISOString(),
      receiving_expired_at: row.receivingExpiresAt.toISOString(),
      is_new: isNew,
    };
    return c.json({ data }, isNew ? 201 : 200);
  });

  return routes;
}
