import { z } from 'zod';
import { defineMethod } from '../../api/define';

/** event_params arrive as JSON text (GET) or an object (JSON body). */
const eventParams = z
  .union([z.string().max(8192), z.record(z.string(), z.unknown())])
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value === '') return {};
    if (typeof value !== 'string') return value;
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // reported below
    }
    ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
    return z.NEVER;
  });

export const analyticsMethods = [
  defineMethod({
    service: 'events',
    method: 'handle',
    verbs: ['GET', 'POST'],
    params: z.object({
      event_name: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .regex(/^[\w.:-]+$/),
      event_params: eventParams,
    }),
    isAvailableWhenClosed: true,
    handler: async (ctx, params) => {
      await ctx.services.analytics.recordEvent({
        siteId: ctx.site.id,
        visitorId: ctx.visitorId,
        uid: ctx.uid,
        eventName: params.event_name,
        eventParams: params.event_params,
      });
      return 1;
    },
  }),
];
