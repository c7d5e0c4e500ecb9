/**
 * Placing and listing sports bets (issue 14 "Bet slip", "My bets"; the spec names no sportsbook
 * methods, so these follow the product API's conventions): `sportsbook.placeBet` places a slip as
 * one idempotent call keyed by `request_id`; `sportsbook.getBets` lists the player's tickets.
 */
import { z } from 'zod';
import { SLIP_MAX_SELECTIONS } from '../sportsbook/bet-types';
import { ODDS_CHANGE_ACCEPTANCES } from '../sportsbook/types';
import type { Money } from '../money';
import { method } from './method';

export const SPORT_BETS_PAGE_MAX = 50;

const selection = z.object({
  event_id: z.string().min(1).max(100),
  market_key: z.string().min(1).max(200),
  outcome_id: z.string().min(1).max(100),
  /** The price on the slip, decimal ("2.35"). */
  odds: z.string().regex(/^\d{1,4}(\.\d{1,4})?$/),
});

export type SlipSelectionInput = z.infer<typeof selection>;

const selections = z
  .string()
  .max(20_000)
  .transform((text, ctx) => {
    try {
      return z.array(selection).min(1).max(SLIP_MAX_SELECTIONS).parse(JSON.parse(text));
    } catch {
      ctx.addIssue({ code: 'custom', message: 'selections must be a JSON list of selections' });
      return z.NEVER;
    }
  });

export type LegResultView = 'open' | 'won' | 'lost' | 'void' | 'half_won' | 'half_lost' | 'dead_heat';

export interface TicketLegView {
  event_id: string;
  market_key: string;
  outcome_id: string;
  /** The event ("Juventus – Milan"), the market ("Total 2.5") and the outcome ("Over 2.5") in the request's language. */
  event_name: string;
  market_name: string;
  outcome_name: string;
  odds: string;
  result: LegResultView;
}

export interface TicketView {
  id: number;
  bet_type: string;
  lines: number;
  stake_per_line: Money;
  total_stake: Money;
  potential_return: Money;
  payout: Money;
  status: 'open' | 'won' | 'lost' | 'void' | 'partial' | 'cashed_out';
  /** What cash-outs paid so far (the stake fields hold what is still on the bet). */
  cashed_out: Money;
  /** What the bet can be cashed out for now, when it can (an open single or multiple from the main balance, every market open). */
  cash_out: Money | null;
  /** The betting bonus it was staked from (a free bet or bonus money), if any. */
  bonus_id: number | null;
  placed_at: string;
  settled_at: string | null;
  legs: TicketLegView[];
  is_replay?: boolean;
}

export const sportsbookBetsContract = {
  'sportsbook.placeBet': method<TicketView>()({
    params: z.object({
      selections,
      bet_type: z.string().max(20),
      /** The stake of each line, as an amount ("10.00"). */
      stake: z.string().regex(/^\d{1,9}(\.\d{1,2})?$/),
      odds_change: z.enum(ODDS_CHANGE_ACCEPTANCES).default('none'),
      bonus_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
      request_id: z.string().min(1).max(64),
    }),
    requiresUser: true,
  }),
  'sportsbook.cashOut': method<TicketView>()({
    params: z.object({
      ticket_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
      /** The full cash-out price the player was shown: a price that moved since refuses. */
      price: z.string().regex(/^\d{1,9}(\.\d{1,2})?$/),
      /** Part of the price, for a partial cash-out; the whole price when absent. */
      amount: z
        .string()
        .regex(/^\d{1,9}(\.\d{1,2})?$/)
        .optional(),
    }),
    requiresUser: true,
  }),
  'sportsbook.getBets': method<{ items: TicketView[] }>()({
    params: z.object({
      status: z.enum(['open', 'settled', 'all']).default('all'),
      offset: z.coerce.number().int().min(0).max(100_000).default(0),
      count: z.coerce.number().int().min(1).max(SPORT_BETS_PAGE_MAX).default(20),
    }),
    requiresUser: true,
  }),
};
