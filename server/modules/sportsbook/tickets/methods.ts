/**
 * sportsbook.placeBet, cashOut and getBets (issue 14): the slip's wire form read into the ticket
 * book's terms (bet type, prices as ten-thousandths, amounts in minor units); the book decides.
 */
import { parseBetType } from '#common/sportsbook/bet-types';
import { amountToMinor } from '#common/money';
import { invalidParameter as invalid } from '#common/parameter-errors';
import { OddsError, parseOdds } from '#common/sportsbook/odds';
import { defineMethod } from '../../../api/define';
import { gamblerOf } from '../../../api/gambler';

function oddsOf(text: string): bigint {
  try {
    return parseOdds(text);
  } catch (error) {
    if (error instanceof OddsError) throw invalid('selections', 'A price on the slip is not a valid price');
    throw error;
  }
}

export const sportsbookBetMethods = [
  defineMethod({
    name: 'sportsbook.placeBet',
    handler: async (ctx, params) => {
      const betType = parseBetType(params.bet_type);
      if (!betType) throw invalid('bet_type');
      const placed = await ctx.services.tickets.place(gamblerOf(ctx), {
        selections: params.selections.map((item) => ({
          eventId: item.event_id,
          marketKey: item.market_key,
          outcomeId: item.outcome_id,
          oddsUnits: oddsOf(item.odds),
        })),
        betType,
        stakePerLineMinor: amountToMinor(params.stake),
        oddsChange: params.odds_change,
        bonusId: params.bonus_id,
        requestId: params.request_id,
        // The wager record's channel: the site is the one channel there is, on any device.
        channel: 'web',
      });
      return ctx.services.tickets.view(placed, ctx.locale, placed.isReplay);
    },
  }),
  defineMethod({
    name: 'sportsbook.cashOut',
    handler: async (ctx, params) => {
      const cashed = await ctx.services.tickets.cashOut(gamblerOf(ctx), {
        ticketId: params.ticket_id,
        expectedPriceMinor: amountToMinor(params.price),
        amountMinor: params.amount === undefined ? undefined : amountToMinor(params.amount),
      });
      return ctx.services.tickets.view(cashed, ctx.locale);
    },
  }),
  defineMethod({
    name: 'sportsbook.getBets',
    handler: async (ctx, params) => ({ items: await ctx.services.tickets.list(ctx.site.id, ctx.uid, params, ctx.locale) }),
  }),
];
