/** events.handle (spec §7): analytics events of the site. */
import { z } from 'zod';
import { method, type Done } from './method';

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

export const eventsContract = {
  'events.handle': method<Done>()({
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
  }),
};
