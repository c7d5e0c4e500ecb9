/**
 * Per-site jurisdiction rules for in-house play (issue 5): the `games_jurisdiction` block of a
 * site's settings (content/sites.json), read like the cashier's block (cashier/settings.ts), with
 * defaults for a site that sets none.
 *
 * - minimum spin duration: a real-money slot round may not start sooner than this many ms after
 *   the player's previous one started (regulators such as the UKGC ask 2.5 s). Enforced here, in
 *   the round's transaction, under the player's seed lock, so parallel requests cannot slip by.
 * - freespin_wagering_multiplier: what the wins of an awarded freespin pack must be wagered
 *   (0: paid to the main balance, wager-free; see freespins/service.ts).
 * - autoplay: allowed or not, the most rounds one autoplay may run, the round counts offered,
 *   and whether the player must set a loss limit and a single-win limit before it starts. The
 *   game client reads them through games.getSettings; every autoplay round is still an ordinary
 *   games.play request, so the minimum spin duration holds for it too.
 */
import { and, desc, eq, like, sql } from 'drizzle-orm';
import { ApiError } from '#common/errors';
import type { Executor } from '../../db/retry';
import { gameRounds } from './tables';

export interface AutoplayRules {
  isAllowed: boolean;
  maxRounds: number;
  roundOptions: number[];
  isLossLimitRequired: boolean;
  isSingleWinLimitRequired: boolean;
}

export interface GamesJurisdiction {
  minSpinDurationMs: number;
  autoplay: AutoplayRules;
  /** Wagering on freespin wins of packs awarded without their own: 0 pays them to main (wager-free). */
  freespinWageringMultiplier: number;
}

interface RawSettings {
  min_spin_duration_ms?: number;
  freespin_wagering_multiplier?: number;
  autoplay?: {
    is_allowed?: boolean;
    max_rounds?: number;
    round_options?: number[];
    is_loss_limit_required?: boolean;
    is_single_win_limit_required?: boolean;
  };
}

const DEFAULT_ROUND_OPTIONS = [10, 25, 50, 100];
const MAX_SPIN_DURATION_MS = 60_000;

const wholeNumber = (value: unknown, fallback: number, max: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? Math.min(value, max) : fallback;

export function gamesJurisdiction(siteSettings: Record<string, unknown>): GamesJurisdiction {
  const raw = (siteSettings.games_jurisdiction ?? {}) as RawSettings;
  const autoplay = raw.autoplay ?? {};
  const maxRounds = wholeNumber(autoplay.max_rounds, 100, 10_000);
  const isAllowed = autoplay.is_allowed ?? true;
  const options = (Array.isArray(autoplay.round_options) ? autoplay.round_options : DEFAULT_ROUND_OPTIONS).filter(
    (count) => Number.isInteger(count) && count > 0 && count <= maxRounds,
  );
  return {
    minSpinDurationMs: wholeNumber(raw.min_spin_duration_ms, 0, MAX_SPIN_DURATION_MS),
    autoplay: {
      isAllowed: isAllowed && maxRounds > 0,
      maxRounds: isAllowed ? maxRounds : 0,
      roundOptions: isAllowed ? (options.length ? options : [maxRounds]) : [],
      isLossLimitRequired: autoplay.is_loss_limit_required ?? false,
      isSingleWinLimitRequired: autoplay.is_single_win_limit_required ?? false,
    },
    freespinWageringMultiplier: wholeNumber(raw.freespin_wagering_multiplier, 0, 100),
  };
}

/** The rules as the product API shows them (games.getSettings). */
export function jurisdictionView(rules: GamesJurisdiction) {
  return {
    min_spin_duration_ms: rules.minSpinDurationMs,
    autoplay: {
      is_allowed: rules.autoplay.isAllowed,
      max_rounds: rules.autoplay.maxRounds,
      round_options: rules.autoplay.roundOptions,
      is_loss_limit_required: rules.autoplay.isLossLimitRequired,
      is_single_win_limit_required: rules.autoplay.isSingleWinLimitRequired,
    },
  };
}

export const isSlotEngine = (engine: string) => engine.startsWith('slot-');

/**
 * Refuses a real slot round that starts within `minSpinDurationMs` of the owner's previous one
 * (TooManyRequestsException with retry_after_ms). Call inside the round's transaction, holding
 * the owner's seed lock. Measured on the database clock, the one that stamped the rounds.
 */
export async function enforceMinSpinDuration(
  tx: Executor,
  siteId: string,
  ownerKey: string,
  minSpinDurationMs: number,
): Promise<void> {
  if (minSpinDurationMs <= 0) return;
  const [last] = await tx
    .select({ elapsedMs: sql<number>`(extract(epoch from (clock_timestamp() - ${gameRounds.createdAt})) * 1000)::float8` })
    .from(gameRounds)
    .where(
      and(
        eq(gameRounds.siteId, siteId),
        eq(gameRounds.ownerKey, ownerKey),
        eq(gameRounds.mode, 'real'),
        like(gameRounds.engine, 'slot-%'),
      ),
    )
    .orderBy(desc(gameRounds.id))
    .limit(1);
  if (!last) return;
  const elapsedMs = Math.max(0, Number(last.elapsedMs));
  if (elapsedMs >= minSpinDurationMs) return;
  const retryAfterMs = Math.ceil(minSpinDurationMs - elapsedMs);
  throw new ApiError('TooManyRequestsException', `Wait ${(retryAfterMs / 1000).toFixed(1)} s before the next spin`, {
    reason: 'min_spin_duration',
    min_spin_duration_ms: minSpinDurationMs,
    retry_after_ms: retryAfterMs,
    retry_after: Math.ceil(retryAfterMs / 1000),
  });
}
