/**
 * A site's sportsbook limits (issue 14: "minimum and maximum stake, maximum payout per bet … the
 * most restrictive of player, market, league and site limits applies"): `settings.sportsbook.limits`
 * per currency, `{"EUR": {"max_stake": "500.00", "max_payout": "50000.00"}}`; a currency the site
 * names none for gets the house defaults below, so no bet is ever unlimited.
 */
import { amountToMinor } from '#common/money';
import type { BetLimit } from '../rules/slip';

const DEFAULT_MAX_STAKE = '1000.00';
const DEFAULT_MAX_PAYOUT = '100000.00';
const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;

function amountOr(value: unknown, fallback: string): bigint {
  return amountToMinor(typeof value === 'string' && AMOUNT.test(value) ? value : fallback);
}

export function sportsbookLimits(settings: Record<string, unknown> | undefined, currency: string): BetLimit[] {
  const block = (settings?.sportsbook as { limits?: Record<string, { max_stake?: unknown; max_payout?: unknown }> } | undefined)
    ?.limits?.[currency];
  return [
    {
      scope: 'site',
      maxStakeMinor: amountOr(block?.max_stake, DEFAULT_MAX_STAKE),
      maxPayoutMinor: amountOr(block?.max_payout, DEFAULT_MAX_PAYOUT),
    },
  ];
}
