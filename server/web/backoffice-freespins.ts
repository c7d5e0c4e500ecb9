/**
 * Back-office routes for freespin packs (issue 5), mounted under /backoffice/freespins behind the
 * operator token check of backoffice.ts: award a pack to a player (idempotent by award_key),
 * list a player's packs, withdraw what is left of a pack. Each award and withdrawal is recorded in
 * the audit log under the operator's name.
 *
 *   POST /backoffice/freespins  {"user_id": 12, "sysname": "aurora-fortune", "count": 10,
 *        "stake": "0.20", "valid_days": 7, "wagering_multiplier": 10, "award_key": "...", "reason": "..."}
 *   GET  /backoffice/freespins?user_id=12
 *   POST /backoffice/freespins/{id}/cancel  {"reason": "..."}
 */
import { z } from 'zod';
import { invalidParameter as invalid } from '#common/parameter-errors';
import { gamesJurisdiction } from '../modules/game-rounds';
import { backofficeRouter, operatorBody } from './backoffice-routes';

const awardSchema = z.object({
  user_id: z.coerce.number().int().positive(),
  sysname: z.string().min(1).max(64),
  count: z.coerce.number().int(),
  stake: z.string().max(20).optional(),
  valid_days: z.coerce.number().int().default(7),
  wagering_multiplier: z.coerce.number().int().optional(),
  award_key: z.string().min(1).max(100),
  reason: z.string().max(500).optional(),
});

export function createBackofficeFreespinRoutes() {
  const routes = backofficeRouter();

  routes.post('/', async (c) => {
    const body = await operatorBody(c, awardSchema);
    const site = c.get('site');
    const pack = await c.get('services').freespins.award({
      siteId: site.id,
      userId: body.user_id,
      sysname: body.sysname,
      count: body.count,
      stake: body.stake,
      validDays: body.valid_days,
      wageringMultiplier: body.wagering_multiplier ?? gamesJurisdiction(site.settings).freespinWageringMultiplier,
      awardKey: body.award_key,
      actor: `operator:${c.get('operator')}`,
      reason: body.reason?.trim() || 'awarded by the operator',
    });
    return c.json({ data: pack }, pack.is_new ? 201 : 200);
  });

  routes.get('/', async (c) => {
    const userId = Number(c.req.query('user_id'));
    if (!Number.isSafeInteger(userId) || userId <= 0) throw invalid('user_id');
    const page = await c.get('services').freespins.list(c.get('site').id, userId, {
      locale: 'en',
      status: c.req.query('status') === 'active' ? 'active' : 'all',
      offset: 0,
      count: 99,
      withDescription: true,
    });
    return c.json({ data: page });
  });

  routes.post('/:id/cancel', async (c) => {
    const id = Number(c.req.param('id'));
    if (!Number.isSafeInteger(id) || id <= 0) throw invalid('id');
    const body = (await c.req.json().catch(() => ({}))) as { reason?: unknown };
    const reason =
      typeof body.reason === 'string' && body.reason.trim() ? body.reason.trim().slice(0, 500) : 'withdrawn by the operator';
    await c.get('services').freespins.cancel(c.get('site').id, id, `operator:${c.get('operator')}`, reason);
    return c.json({ data: 1 });
  });

  return routes;
}
