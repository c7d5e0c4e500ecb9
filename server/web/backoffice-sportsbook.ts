/**
 * Back-office routes for the sportsbook's money (issue 14), mounted under /backoffice/sportsbook
 * behind the operator token check of backoffice.ts:
 *
 *   GET  /backoffice/sportsbook/debts[?user_id=12][&status=open|all]   players' debts (a rollback's shortfall)
 *   POST /backoffice/sportsbook/debts/:id/write-off  {"reason": "..."}  forgive what is left of one
 *   GET  /backoffice/sportsbook/limits[?scope=player|market|league]     the operator's bet limits
 *   PUT  /backoffice/sportsbook/limits  {"scope": "league", "target": "sr:tournament:17", "currency": "EUR",
 *         "min_stake": "0.50", "max_stake": "200.00", "max_payout": "20000.00", "max_exposure": null}
 *
 * A limit's amounts are decimal strings or null (no limit of that kind at that scope); a player's
 * limit names the player as its target and takes the player's currency. Site limits stay in the
 * site's settings (settings.sportsbook.limits). Every change is recorded in the audit log under
 * the operator's name; a write-off is a ledger transfer under it.
 */
import { z } from 'zod';
import { minorToAmount, amountToMinor } from '#common/money';
import { invalidParameter as invalid } from '#common/parameter-errors';
import type { PlayerDebtRow } from '../modules/wallet';
import { LIMIT_SCOPES } from '../modules/sportsbook';
import { backofficeRouter, operatorBody, playerOfSite } from './backoffice-routes';

const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;
const amount = z.string().regex(AMOUNT).nullable().optional();

const limitSchema = z.object({
  scope: z.enum(LIMIT_SCOPES),
  target: z.string().trim().min(1).max(200),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
  min_stake: amount,
  max_stake: amount,
  max_payout: amount,
  max_exposure: amount,
});

const writeOffSchema = z.object({ reason: z.string().trim().min(1).max(500).optional() });

const minorOrNull = (value: string | null | undefined) => (value ? amountToMinor(value) : null);
const amountOrNull = (value: bigint | null) => (value === null ? null : minorToAmount(value));

function debtView(row: PlayerDebtRow) {
  return {
    id: row.id,
    user_id: row.userId,
    currency: row.currency,
    amount: minorToAmount(row.amountMinor),
    cleared: minorToAmount(row.clearedMinor),
    written_off: minorToAmount(row.writtenOffMinor),
    owed: minorToAmount(row.amountMinor - row.clearedMinor - row.writtenOffMinor),
    status: row.status,
    reference: row.reference,
    reason: row.reason,
    created_at: row.createdAt.toISOString(),
    closed_at: row.closedAt?.toISOString() ?? null,
  };
}

export function createBackofficeSportsbookRoutes() {
  const routes = backofficeRouter();

  routes.get('/debts', async (c) => {
    const site = c.get('site');
    const userParam = c.req.query('user_id');
    const userId = userParam === undefined ? undefined : Number(userParam);
    if (userId !== undefined && !(Number.isSafeInteger(userId) && userId > 0)) throw invalid('user_id');
    const status = c.req.query('status') ?? 'open';
    if (status !== 'open' && status !== 'all') throw invalid('status');
    const rows = await c.get('services').debts.list(site.id, { userId, status, count: 500 });
    return c.json({ data: rows.map(debtView) });
  });

  routes.post('/debts/:id/write-off', async (c) => {
    const body = await operatorBody(c, writeOffSchema);
    const id = Number(c.req.param('id'));
    if (!(Number.isSafeInteger(id) && id > 0)) throw invalid('id');
    const reason = body.reason ?? 'written off by the operator';
    const row = await c.get('services').debts.writeOff(id, c.get('site').id, c.get('operator'), reason);
    if (!row) throw invalid('id');
    return c.json({ data: debtView(row) });
  });

  routes.get('/limits', async (c) => {
    const scope = c.req.query('scope');
    if (scope !== undefined && !(LIMIT_SCOPES as readonly string[]).includes(scope)) throw invalid('scope');
    const rows = await c.get('services').tickets.limits(c.get('site').id, scope as (typeof LIMIT_SCOPES)[number] | undefined);
    return c.json({
      data: rows.map((row) => ({
        scope: row.scope,
        target: row.target,
        currency: row.currency,
        min_stake: amountOrNull(row.minStakeMinor),
        max_stake: amountOrNull(row.maxStakeMinor),
        max_payout: amountOrNull(row.maxPayoutMinor),
        max_exposure: amountOrNull(row.maxExposureMinor),
        updated_by: row.updatedBy,
        updated_at: row.updatedAt.toISOString(),
      })),
    });
  });

  routes.put('/limits', async (c) => {
    const body = await operatorBody(c, limitSchema);
    const site = c.get('site');
    let currency = body.currency ?? site.defaultCurrency;
    if (body.scope === 'player') {
      const userId = Number(body.target);
      if (!(Number.isSafeInteger(userId) && userId > 0)) throw invalid('target');
      const user = await playerOfSite(c, userId);
      currency = user.currency;
    }
    const minStake = minorOrNull(body.min_stake);
    const maxStake = minorOrNull(body.max_stake);
    if (minStake !== null && (minStake === 0n || (maxStake !== null && minStake > maxStake))) throw invalid('min_stake');
    for (const field of ['max_stake', 'max_payout', 'max_exposure'] as const)
      if (body[field] && amountToMinor(body[field]) === 0n) throw invalid(field);
    const services = c.get('services');
    const row = await services.tickets.setLimit({
      siteId: site.id,
      scope: body.scope,
      target: body.target,
      currency,
      minStakeMinor: minStake,
      maxStakeMinor: maxStake,
      maxPayoutMinor: minorOrNull(body.max_payout),
      maxExposureMinor: minorOrNull(body.max_exposure),
      operator: c.get('operator'),
    });
    await services.wallet.recordAction({
      stream: `house:${site.id}`,
      actor: `operator:${c.get('operator')}`,
      action: 'sportsbook.limit',
      subject: `limit:${row.scope}:${row.target}:${row.currency}`,
      reason: 'set by the operator',
      payload: {
        min_stake: amountOrNull(row.minStakeMinor),
        max_stake: amountOrNull(row.maxStakeMinor),
        max_payout: amountOrNull(row.maxPayoutMinor),
        max_exposure: amountOrNull(row.maxExposureMinor),
      },
    });
    return c.json({
      data: {
        scope: row.scope,
        target: row.target,
        currency: row.currency,
        min_stake: amountOrNull(row.minStakeMinor),
        max_stake: amountOrNull(row.maxStakeMinor),
        max_payout: amountOrNull(row.maxPayoutMinor),
        max_exposure: amountOrNull(row.maxExposureMinor),
      },
    });
  });

  return routes;
}
