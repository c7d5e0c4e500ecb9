/**
 * Back-office route for cashbacks, mounted under /backoffice/cashbacks behind the operator token
 * check of backoffice.ts: an operator gives a player the cashback of the last completed period
 * for a net loss they assessed (the programme's percent, minimum and cap apply). One per player
 * and period, like the period job's; recorded in the audit log under the operator's name.
 *
 *   POST /backoffice/cashbacks  {"user_id": 12, "net_loss": "50.00", "reason": "..."}
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError } from '#common/errors';
import { amountToMinor, minorToAmount } from '#common/money';
import { invalidParameter as invalid } from '#common/parameter-errors';
import type { AppEnv } from './app-env';

type Env = AppEnv & { Variables: { operator: string } };

const grantSchema = z.object({
  user_id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  net_loss: z.string().regex(/^\d{1,12}(\.\d{1,2})?$/),
  reason: z.string().max(500).optional(),
});

export function createBackofficeCashbackRoutes() {
  const routes = new Hono<Env>();

  routes.onError((error, c) => {
    if (error instanceof ApiError) return c.json({ error: error.toBody() }, error.type === 'AccessDeniedException' ? 403 : 400);
    throw error;
  });

  routes.post('/', async (c) => {
    const parsed = grantSchema.safeParse(await c.req.json().catch(() => ({})));
    if (!parsed.success) throw invalid(String(parsed.error.issues[0]?.path[0] ?? 'body'));
    const body = parsed.data;
    const site = c.get('site');
    const user = await c.get('services').accounts.findUser(body.user_id);
    if (!user || user.siteId !== site.id) throw invalid('user_id');
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
