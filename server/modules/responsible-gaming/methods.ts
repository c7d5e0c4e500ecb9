/**
 * Responsible gaming in the product API: account.getDepositLimit (spec §3 fields) and the
 * responsibleGaming.* methods behind /profile/responsible-game.
 */
import { ApiError } from '#common/errors';
import { minorToAmount, money } from '#common/money';
import { validateSum } from '#common/validators';
import { defineMethod, type ApiContext } from '../../api/define';
import { requireValid } from '#common/parameter-errors';
import { jurisdictionOf, type PeriodLimit } from './service';
import {
  SELF_EXCLUSION_DURATIONS,
  TIMEOUT_DURATIONS,
  selfExclusionEnd,
  timeoutEnd,
  type SelfExclusionDuration,
  type TimeoutDuration,
} from './rules';

/** Largest limit a player may set, in major units. */
const MAX_LIMIT_MAJOR = 1_000_000;

export function limitView(limit: PeriodLimit) {
  const available = limit.limitMinor === null ? null : limit.limitMinor - limit.depositedMinor;
  return {
    period: limit.period,
    limit_amount: limit.limitMinor === null ? null : minorToAmount(limit.limitMinor),
    available_amount: available === null ? null : minorToAmount(available > 0n ? available : 0n),
    pending_amount: limit.pendingEffectiveAt
      ? limit.pendingLimitMinor === null
        ? null
        : minorToAmount(limit.pendingLimitMinor)
      : undefined,
    pending_effective_at: limit.pendingEffectiveAt?.toISOString() ?? null,
    expired_at: limit.resetsAt.toISOString(),
  };
}

async function currentUserCurrency(ctx: ApiContext): Promise<string> {
  return (await ctx.services.accounts.findUser(ctx.uid))?.currency ?? ctx.site.defaultCurrency;
}

export const responsibleGamingMethods = [
  defineMethod({
    name: 'account.getDepositLimit',
    handler: async (ctx) => ctx.services.responsibleGaming.tightestLimitView(ctx.uid, await currentUserCurrency(ctx)),
  }),
  defineMethod({
    name: 'responsibleGaming.get',
    handler: async (ctx) => {
      const jurisdiction = jurisdictionOf(ctx.site.settings);
      const limits = await ctx.services.responsibleGaming.limits(ctx.uid);
      return {
        currency: await currentUserCurrency(ctx),
        limits: limits.map(limitView),
        reality_check_minutes: await ctx.services.responsibleGaming.realityCheckMinutes(ctx.uid),
        reality_check_options: jurisdiction.realityCheckOptions,
        cooling_off_hours: jurisdiction.coolingOffHours,
        is_deposit_limit_required: jurisdiction.isDepositLimitRequired,
        is_deposit_limit_missing: jurisdiction.isDepositLimitRequired && limits.every((limit) => limit.limitMinor === null),
        timeout_options: Object.keys(TIMEOUT_DURATIONS) as TimeoutDuration[],
        self_exclusion_options: Object.keys(SELF_EXCLUSION_DURATIONS) as SelfExclusionDuration[],
      };
    },
  }),
  defineMethod({
    name: 'responsibleGaming.setDepositLimit',
    handler: async (ctx, params) => {
      const currency = await currentUserCurrency(ctx);
      const isRemoval = params.amount.trim() === '';
      if (!isRemoval) requireValid('amount', validateSum(params.amount, { min: 1, max: MAX_LIMIT_MAJOR, currency }));
      const requested = isRemoval ? null : BigInt(params.amount.replace(/,/g, '').trim()) * 100n;
      const state = await ctx.services.responsibleGaming.setLimit(
        ctx.uid,
        params.period,
        requested,
        jurisdictionOf(ctx.site.settings).coolingOffHours,
      );
      return {
        applied: state.pendingEffectiveAt === null,
        pending_effective_at: state.pendingEffectiveAt?.toISOString() ?? null,
      };
    },
  }),
  defineMethod({
    name: 'responsibleGaming.setRealityCheck',
    handler: async (ctx, params) => {
      if (!jurisdictionOf(ctx.site.settings).realityCheckOptions.includes(params.minutes)) {
        throw new ApiError('InvalidParameterException', 'Invalid parameter: minutes', { field: 'minutes' });
      }
      await ctx.services.responsibleGaming.setRealityCheck(ctx.uid, params.minutes);
      return 1;
    },
  }),
  defineMethod({
    name: 'responsibleGaming.takeTimeout',
    handler: async (ctx, params) => {
      await ctx.services.responsibleGaming.exclude(ctx.uid, 'timeout', timeoutEnd(params.duration, new Date()));
      ctx.setSession(null);
      return 1;
    },
  }),
  defineMethod({
    name: 'responsibleGaming.selfExclude',
    handler: async (ctx, params) => {
      // A decision this serious is confirmed with the password, so a borrowed session cannot make it.
      const user = await ctx.services.accounts.findUser(ctx.uid);
      if (!user || !(await ctx.services.auth.isPasswordRight(user, params.password))) {
        throw new ApiError('InvalidParameterException', 'Invalid parameter: password', {
          field: 'password',
          errorType: 'password',
        });
      }
      await ctx.services.responsibleGaming.exclude(ctx.uid, 'self_exclusion', selfExclusionEnd(params.duration, new Date()));
      ctx.setSession(null);
      return 1;
    },
  }),
  defineMethod({
    name: 'responsibleGaming.getSessionSummary',
    // Elapsed session time and net position shown while playing (accounts issue): the session
    // began when this sign-in did; the net position is what game transfers moved since then.
    handler: async (ctx) => {
      const currency = await currentUserCurrency(ctx);
      const startedAt = (ctx.sessionTokenHash && (await ctx.services.auth.sessionStartedAt(ctx.sessionTokenHash))) || new Date();
      const play = await ctx.services.wallet.playSince(ctx.site.id, ctx.uid, currency, startedAt);
      return {
        session_started_at: startedAt.toISOString(),
        elapsed_seconds: Math.max(0, Math.floor((Date.now() - startedAt.getTime()) / 1000)),
        staked: money(play.stakedMinor, currency),
        returned: money(play.returnedMinor, currency),
        net_position: money(play.returnedMinor - play.stakedMinor, currency),
        game_transfers: play.transfers,
      };
    },
  }),
];
