/**
 * Game history in the product API (spec §7): games.getHistory (GET; offset, count, sysname,
 * date_from, date_to), games.createhistoryexportrequest (POST; sysname, date_from, date_to) and
 * games.gethistoryexportrequest (GET; id, or the latest request). Signed-in players only.
 */
import { z } from 'zod';
import { invalidParameter as invalid } from '../../api/require-valid';
import { defineMethod, type ApiContext } from '../../api/define';
import { generalInfo } from '../metadata/methods';
import { HISTORY_PAGE_DEFAULT, HISTORY_PAGE_MAX, type HistoryFilter } from './service';

const DAY_MS = 86_400_000;

/** `2026-11-23` (a whole UTC day) or a full ISO moment. */
const dateParam = z
  .string()
  .max(40)
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/)
  .optional();

const filterParams = {
  sysname: z.string().min(1).max(64).optional(),
  date_from: dateParam,
  date_to: dateParam,
};

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
    service: 'games',
    method: 'getHistory',
    verbs: ['GET'],
    requiresUser: true,
    params: z.object({
      offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
      count: z.coerce.number().int().min(1).max(HISTORY_PAGE_MAX).default(HISTORY_PAGE_DEFAULT),
      ...filterParams,
    }),
    handler: async (ctx, params) =>
      ctx.services.gameHistory.getHistory(player(ctx), parseFilter(params), params.offset, params.count),
  }),
  defineMethod({
    service: 'games',
    method: 'createhistoryexportrequest',
    verbs: ['POST'],
    requiresUser: true,
    params: z.object(filterParams),
    handler: async (ctx, params) =>
      ctx.services.gameHistory.createExport(
        { ...player(ctx), isEnabled: generalInfo(ctx.site).is_game_history_export_enabled === true },
        parseFilter(params),
      ),
  }),
  defineMethod({
    service: 'games',
    method: 'gethistoryexportrequest',
    verbs: ['GET'],
    requiresUser: true,
    params: z.object({
      id: z
        .string()
        .regex(/^\d{1,15}$/)
        .optional(),
    }),
    handler: async (ctx, params) => ctx.services.gameHistory.getExport(player(ctx), params.id ? Number(params.id) : undefined),
  }),
];
