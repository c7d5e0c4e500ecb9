/** A ticket as the player sees it (common/contract/sportsbook-bets.ts TicketView). */
import { money } from '#common/money';
import type { LegResultView, TicketView } from '#common/contract/sportsbook-bets';
import { betTypeText, expandLines } from '#common/sportsbook/bet-types';
import { oddsToDecimalString } from '#common/sportsbook/odds';
import type { StoredResult, TicketLegRow, TicketRow } from './tables';

/** What the view adds to the rows: the legs' names in the player's language, and the cash-out price now. */
export interface ViewExtras {
  names: readonly { event: string; market: string; outcome: string }[];
  cashOutMinor: bigint | undefined;
}

/** How a leg ended, in the words the history shows: halves for Asian quarter lines, dead heat for a shared place. */
function legResult(result: StoredResult | null): LegResultView {
  if (!result) return 'open';
  const voided = result.void[0] !== '0';
  const fullVoid = result.void[0] === result.void[1];
  if (fullVoid) return 'void';
  if (result.won && voided) return 'half_won';
  if (!result.won && voided) return 'half_lost';
  if (result.won && result.deadHeat[0] !== result.deadHeat[1]) return 'dead_heat';
  return result.won ? 'won' : 'lost';
}

export function ticketView(ticket: TicketRow, legs: readonly TicketLegRow[], extras: ViewExtras, isReplay?: boolean): TicketView {
  const { currency } = ticket;
  return {
    id: ticket.id,
    bet_type: betTypeText(ticket.betType),
    lines: expandLines(ticket.betType, legs.length).length,
    stake_per_line: money(ticket.stakePerLineMinor, currency),
    total_stake: money(ticket.totalStakeMinor, currency),
    potential_return: money(ticket.potentialReturnMinor, currency),
    payout: money(ticket.payoutMinor, currency),
    cashed_out: money(ticket.cashedOutMinor, currency),
    cash_out: extras.cashOutMinor === undefined ? null : money(extras.cashOutMinor, currency),
    status: ticket.status,
    bonus_id: ticket.bonusId,
    placed_at: ticket.placedAt.toISOString(),
    settled_at: ticket.settledAt?.toISOString() ?? null,
    legs: legs.map((leg, index) => ({
      event_id: leg.eventId,
      market_key: leg.marketKey,
      outcome_id: leg.outcomeId,
      event_name: extras.names[index]?.event ?? leg.eventId,
      market_name: extras.names[index]?.market ?? leg.marketKey,
      outcome_name: extras.names[index]?.outcome ?? leg.outcomeId,
      odds: oddsToDecimalString(leg.oddsUnits),
      result: legResult(leg.result),
    })),
    ...(isReplay === undefined ? {} : { is_replay: isReplay }),
  };
}
