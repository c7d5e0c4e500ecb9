/**
 * A fixture as the feed provider describes it (issue 14): the unified odds feed's messages carry
 * only an event id, and real feeds serve who plays, in which tournament and when from a fixtures
 * endpoint beside the message stream. The simulator serves the same shape; nothing is stored that
 * did not parse.
 */
import { z } from 'zod';
import { SPORTS } from '#common/sportsbook/types';

const named = z.object({ id: z.string().min(1).max(64), name: z.string().min(1).max(128) });

export const fixtureSchema = z.object({
  event_id: z.string().min(1).max(64),
  sport: z.enum(SPORTS),
  category: named,
  tournament: named,
  competitors: z.tuple([named, named]),
  /** Epoch milliseconds. */
  start_time: z.number().int().nonnegative(),
});

export type Fixture = z.infer<typeof fixtureSchema>;

export function parseFixture(raw: unknown): Fixture {
  return fixtureSchema.parse(raw);
}
