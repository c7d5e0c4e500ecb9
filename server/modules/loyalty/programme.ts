/**
 * A site's loyalty programme: the `loyalty` block of its settings (content/sites.json), read like
 * the games' jurisdiction block, with defaults for a site that sets none.
 *
 * - is_enabled: a site without a programme still answers loyalty.getinfo, with is_active false
 *   and no points earned;
 * - wager_minor_per_point: per currency, how much real money (minor units) a player wagers for
 *   one point; a currency not listed earns nothing;
 * - levels: thresholds of experience (every point ever earned), the first at 0;
 * - characters: the avatars a player may pick at sign-up or later (spec §3 auth config
 *   showCharacterSelect; §4 "loyalty characters are set on the server").
 */
import type { LoyaltyCharacter, LoyaltyLevel } from '#common/loyalty-contract';

export interface LoyaltyProgramme {
  isEnabled: boolean;
  wagerMinorPerPoint: Record<string, bigint>;
  levels: LoyaltyLevel[];
  characters: LoyaltyCharacter[];
}

interface RawProgramme {
  is_enabled?: unknown;
  wager_minor_per_point?: unknown;
  levels?: unknown;
  characters?: unknown;
}

const SYSNAME = /^[a-z][a-z0-9-]{0,39}$/;
const DEFAULT_LEVELS: LoyaltyLevel[] = [{ level: 1, sysname: 'member', min_points: 0 }];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isWhole = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

function readRates(raw: unknown): Record<string, bigint> {
  if (!isRecord(raw)) return {};
  const rates: Record<string, bigint> = {};
  for (const [currency, minor] of Object.entries(raw))
    if (/^[A-Z]{3}$/.test(currency) && isWhole(minor) && minor > 0) rates[currency] = BigInt(minor);
  return rates;
}

/** Levels sorted by threshold, numbered from 1; the first always starts at 0 so every player has one. */
function readLevels(raw: unknown): LoyaltyLevel[] {
  if (!Array.isArray(raw)) return DEFAULT_LEVELS;
  const valid = raw.filter(
    (item): item is { sysname: string; min_points: number } =>
      isRecord(item) && typeof item.sysname === 'string' && SYSNAME.test(item.sysname) && isWhole(item.min_points),
  );
  const sorted = [...valid]
    .sort((a, b) => a.min_points - b.min_points)
    .filter((item, index, all) => index === 0 || item.min_points > all[index - 1]!.min_points);
  if (sorted.length === 0) return DEFAULT_LEVELS;
  return sorted.map((item, index) => ({
    level: index + 1,
    sysname: item.sysname,
    min_points: index === 0 ? 0 : item.min_points,
  }));
}

function readCharacters(raw: unknown): LoyaltyCharacter[] {
  if (!Array.isArray(raw)) return [];
  const seen = new Set<number>();
  const characters: LoyaltyCharacter[] = [];
  for (const item of raw) {
    if (!isRecord(item) || !isWhole(item.id) || item.id === 0 || seen.has(item.id)) continue;
    if (
      typeof item.sysname !== 'string' ||
      !SYSNAME.test(item.sysname) ||
      typeof item.image !== 'string' ||
      !item.image.startsWith('/')
    )
      continue;
    seen.add(item.id);
    characters.push({ id: item.id, sysname: item.sysname, image: item.image });
  }
  return characters;
}

export function loyaltyProgramme(siteSettings: Record<string, unknown>): LoyaltyProgramme {
  const raw: RawProgramme = isRecord(siteSettings.loyalty) ? siteSettings.loyalty : {};
  return {
    isEnabled: raw.is_enabled === true,
    wagerMinorPerPoint: readRates(raw.wager_minor_per_point),
    levels: readLevels(raw.levels),
    characters: readCharacters(raw.characters),
  };
}

/**
 * Points earned by a running wager total: every whole `rate` wagered is a point. Working from
 * the total, not from each bet, means no fraction of a point is ever lost to rounding.
 */
export function pointsForWagered(wageredMinor: bigint, rate: bigint | undefined): bigint {
  if (!rate || wageredMinor <= 0n) return 0n;
  return wageredMinor / rate;
}
