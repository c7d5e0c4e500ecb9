/**
 * Game history in the product API (spec §7): games.getHistory (GET; offset, count, sysname,
 * date_from, date_to), games.createhistoryexportrequest (POST; sysname, date_from, date_to) and
 * games.gethistoryexportrequest (GET; id, or the latest request). Signed-in players only.
 */
import { invalidParameter as invalid } from '#common/parameter-errors';
import { defineMethod, type ApiContext } from '../../api/define';
import { generalInfo } from '../metadata';
import type { HistoryFilter } from './service';

const DAY_MS = 86_400_000;

/** date_from is inclusive; date_to as a day means through the end of that day. */
function parseFilter(params: { sysname?: string; date_from?: string; date_to?: string }): HistoryFilter {
  const parse = (text: string | undefined, field: string, isEnd: boolean): Date | undefined => {
    if (!text) return undefined;
    const date = new Date(text.length === 10 ? `${text}T00:00:00Z` : text);
    if (Number.isNaN(date.getTime())) throw invalid(field);
    return isEnd && text.length === 10 ? new Date(date.getTime() + DAY_MS) : date;
  };
  const dateFrom = parse(params.date_from, 'date_from', false);
  const dateTo = parse(params.date_to, 'date_to', true);
  if (dateFrom && dateTo && dateFrom >= dateTo) throw invalid('date_to');
  return { sysname: params.sysname || undefined, dateFrom, dateTo };
}

const player = (ctx: ApiContext) => ({ siteId: ctx.site.id, userId: ctx.uid, locale: ctx.locale });

export const gameHistoryMethods = [
  defineMethod({
    name: 'games.getHistory',
    handler: async (ctx, params) =>
      ctx.services.gameHistory.getHistory(player(ctx), parseFilter(params), params.offset, params.count),
  }),
  defineMethod({
    name: 'games.createhistoryexportrequest',
    handler: async (ctx, params) =>
      ctx.services.gameHistory.createExport(
        { ...player(ctx), isEnabled: generalInfo(ctx.site).is_game_history_export_enabled === true },
        parseFilter(params),
      ),
  }),
  defineMethod({
    name: 'games.gethistoryexportrequest',
    handler: async (ctx, params) => ctx.services.gameHistory.getExport(player(ctx), params.id ? Number(params.id) : undefined),
  }),
  defineMethod({
    name: 'games.getWinners',
    handler: async (ctx, params) => ({
      items: await ctx.services.gameHistory.recentBigWins(ctx.site.id, ctx.locale, params.count),
    }),
  }),
];
