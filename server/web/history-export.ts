/**
 * GET /platform/history-export/{id}.csv: the game history export file (issue 5), for the signed-in
 * player who asked for it and no one else (another player's id and an unknown id both answer
 * 404). Private and not stored by caches; sent as an attachment so the browser saves it.
 */
import { Hono } from 'hono';
import { ApiError } from '#common/errors';
import type { AppEnv } from './app-env';
import { generalInfo } from '../modules/metadata';

export function createHistoryExportRoutes() {
  const routes = new Hono<AppEnv>();

  routes.get('/:file', async (c) => {
    const match = /^(\d{1,15})\.csv$/.exec(c.req.param('file'));
    const site = c.get('site');
    const { uid } = c.get('identity');
    c.header('Cache-Control', 'private, no-store');
    if (!match?.[1]) return c.json({ error: new ApiError('MethodNotFoundException', 'Not found').toBody() }, 404);
    if (uid <= 0)
      return c.json({ error: new ApiError('AuthorizationException', 'Sign in to download your game history').toBody() }, 401);
    if (generalInfo(site).is_game_history_export_enabled !== true) {
      return c.json(
        {
          error: new ApiError('AccessDeniedException', 'Game history export is not available on this site', {
            reason: 'history_export_disabled',
          }).toBody(),
        },
        403,
      );
    }
    const file = await c.get('services').gameHistory.findFile({ siteId: site.id, userId: uid }, Number(match[1]));
    if (!file) return c.json({ error: new ApiError('MethodNotFoundException', 'Not found').toBody() }, 404);
    // A byte-order mark so spreadsheet programs read the file as UTF-8.
    return c.body(`\uFEFF${file.csv}`, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${file.fileName}"`,
      'X-Content-Type-Options': 'nosniff',
    });
  });

  return routes;
}
