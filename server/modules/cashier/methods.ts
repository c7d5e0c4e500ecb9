/**
 * The cashier in the product API (spec §7 cashier.*, account.getBalance, getcurrencyrates,
 * setCurrency): parameters checked here, rules in the service.
 */
import { ApiError } from '#common/errors';
import type { DepositSettings } from '#common/cashier-contract';
import { defineMethod, type ApiContext } from '../../api/define';
import { siteOrigin } from '../../web/site-origin';
import { methodView } from './payment-methods';
import type { PlayerRequest } from './service';
import { BANKS } from './banks';
import { jurisdictionOf } from '../responsible-gaming';

/** `requisites[name]=value` form fields, or a `requisites` object in a JSON body. */
function requisitesFrom(params: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  const nested = params.requisites;
  if (nested && typeof nested === 'object' && !Array.isArray(nested)) {
    for (const [key, value] of Object.entries(nested)) if (typeof value === 'string') out[key] = value;
  }
  for (const [key, value] of Object.entries(params)) {
    const match = /^requisites\[(\w+)\]$/.exec(key);
    if (match?.[1] && typeof value === 'string') out[match[1]] = value;
  }
  return out;
}

async function playerRequest(ctx: ApiContext): Promise<PlayerRequest> {
  const user = await ctx.services.accounts.findUser(ctx.uid);
  if (!user) throw new ApiError('AuthorizationException', 'Sign in first');
  return { site: ctx.site, user, locale: ctx.locale, origin: siteOrigin(ctx.site, ctx.url) };
}

export const cashierMethods = [
  defineMethod({
    name: 'cashier.getpaymentmethods',
    handler: async (ctx, params) =>
      (await ctx.services.cashier.listMethods(await playerRequest(ctx), params.type)).map(methodView),
  }),
  defineMethod({
    name: 'cashier.getdepositsettings',
    handler: async (ctx): Promise<DepositSettings> => {
      const request = await playerRequest(ctx);
      const depositLimit = await ctx.services.responsibleGaming.tightestLimitView(request.user.id, request.user.currency);
      return {
        currency: request.user.currency,
        available_currencies: ctx.site.currencies,
        deposit_count: await ctx.services.cashier.depositCount(request.user.id),
        deposit_limit: depositLimit,
        // The rule enforceDepositLimits applies, told before the form (issue 15) rather than after Deposit.
        is_deposit_limit_required: jurisdictionOf(ctx.site.settings).isDepositLimitRequired && depositLimit.period === 'none',
      };
    },
  }),
  defineMethod({
    name: 'cashier.makedeposit',
    handler: async (ctx, params) =>
      ctx.services.cashier.startDeposit(await playerRequest(ctx), {
        method: params.method,
        amount: params.amount,
        currency: params.currency,
        campaignOfferId: params.campaign_offer_id,
        flow: params.flow,
        requisites: requisitesFrom(params),
      }),
  }),
  defineMethod({
    name: 'cashier.getdepositinfo',
    handler: async (ctx, params) => ctx.services.cashier.depositInfo(await playerRequest(ctx), params.id),
  }),
  defineMethod({
    name: 'cashier.gethistory',
    handler: async (ctx, params) =>
      ctx.services.cashier.history(
        await playerRequest(ctx),
        params.type,
        params.offset,
        params.count,
        (params.statuses ?? '')
          .split(',')
          .map((status) => status.trim())
          .filter(Boolean),
      ),
  }),
  defineMethod({
    name: 'cashier.getwithdrawsettings',
    handler: async (ctx) => ctx.services.cashier.withdrawSettings(await playerRequest(ctx)),
  }),
  defineMethod({
    name: 'cashier.getbanks',
    handler: async (ctx) => BANKS[(await playerRequest(ctx)).user.currency] ?? BANKS.default,
  }),
  defineMethod({
    name: 'cashier.makewithdrawal',
    handler: async (ctx, params) =>
      ctx.services.cashier.makeWithdrawal(await playerRequest(ctx), {
        method: params.method,
        amount: params.amount,
        requisites: requisitesFrom(params),
        burnBonuses: params.burn_bonuses === '1',
      }),
  }),
  defineMethod({
    name: 'cashier.cancelwithdrawal',
    handler: async (ctx, params) => {
      await ctx.services.cashier.cancelWithdrawal(await playerRequest(ctx), params.id);
      return 1;
    },
  }),
  defineMethod({
    name: 'account.getcurrencyrates',
    handler: async (ctx) => ctx.services.cashier.currencyRates(ctx.site),
  }),
  defineMethod({
    name: 'account.setCurrency',
    handler: async (ctx, params) => {
      if (!ctx.site.currencies.includes(params.currency))
        throw new ApiError('InvalidParameterException', 'Invalid parameter: currency', {
          field: 'currency',
          errorType: 'wrongField',
        });
      await ctx.services.accounts.setCurrency(ctx.uid, params.currency);
      return 1;
    },
  }),
];
