/**
 * The operators' back-office API: the withdrawal review queue with approve and decline, the
 * ledger's invariant check, free spins, bonuses and cashbacks granted by hand, and the
 * sportsbook's players' debts and bet limits. Each operator
 * has a bearer token (BACKOFFICE_TOKENS); every decision is recorded in the audit log under the
 * operator's name.
 */
import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { ApiError } from '#common/errors';
import { minorToAmount } from '#common/money';
import type { AppEnv } from './app-env';
import { createBackofficeFreespinRoutes } from './backoffice-freespins';
import { createBackofficeBonusRoutes } from './backoffice-bonuses';
import { createBackofficeCashbackRoutes } from './backoffice-cashbacks';
import { createBackofficeSportsbookRoutes } from './backoffice-sportsbook';

/** Parses `name:token,name:token`. */
export function parseOperatorTokens(value: string | undefined): Map<string, string> {
  const tokens = new Map<string, string>();
  for (const pair of (value ?? '').split(',').filter(Boolean)) {
    const at = pair.indexOf(':');
    tokens.set(pair.slice(at + 1), pair.slice(0, at));
  }
  return tokens;
}

function operatorFor(tokens: Map<string, string>, header: string | undefined): string | undefined {
  const presented = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
  for (const [token, name] of tokens) {
    const expected = Buffer.from(token);
    if (expected.length === presented.length && timingSafeEqual(expected, presented)) return name;
  }
  return undefined;
}

const jsonSafe = (value: unknown) =>
  JSON.parse(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item))) as unknown;

export function createBackofficeRoutes(tokens: Map<string, string>) {
  const routes = new Hono<AppEnv & { Variables: { operator: string } }>();

  routes.use('*', async (c, next) => {
    const operator = operatorFor(tokens, c.req.header('authorization'));
    if (!operator)
      return c.json({ error: new ApiError('AuthorizationException', 'A valid operator token is required').toBody() }, 401);
    c.set('operator', operator);
    await next();
  });

  routes.onError((error, c) => {
    if (error instanceof ApiError) return c.json({ error: error.toBody() }, 400);
    throw error;
  });

  routes.get('/withdrawals', async (c) => {
    const rows = await c.get('services').cashier.listWithdrawals(c.req.query('status') ?? 'pending');
    return c.json({ data: rows.map((row) => ({ ...(jsonSafe(row) as object), amount: minorToAmount(row.amountMinor) })) });
  });

  routes.post('/withdrawals/:id/approve', async (c) => {
    const row = await c.get('services').cashier.approveWithdrawal(c.get('operator'), c.req.param('id'));
    return c.json({ data: { id: row.id, status: row.status } });
  });

  routes.post('/withdrawals/:id/decline', async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { reason?: unknown };
    const reason =
      typeof body.reason === 'string' && body.reason.trim() ? body.reason.trim().slice(0, 500) : 'Declined by the operator';
    const row = await c.get('services').cashier.declineWithdrawal(c.get('operator'), c.req.param('id'), reason);
    return c.json({ data: { id: row.id, status: row.status } });
  });

  routes.get('/ledger/check', async (c) => c.json({ data: await c.get('services').checkLedger() }));
  routes.route('/freespins', createBackofficeFreespinRoutes());
  routes.route('/bonuses', createBackofficeBonusRoutes());
  routes.route('/cashbacks', createBackofficeCashbackRoutes());
  routes.route('/sportsbook', createBackofficeSportsbookRoutes());

  return routes;
}
