/**
 * The loyalty programme as the product API shows it (spec §3 loyalty info, characters list,
 * progress helper; §7 loyalty.getinfo, getcharacters, setcharacter). Shared by the server that
 * builds these answers and the site that shows them.
 *
 * Points come in two counts: `points` is what the player may spend (the shop takes from it) and
 * `experience` is every point ever earned, which only grows and decides the level, so buying in
 * the shop never drops a player a level.
 */

export interface LoyaltyCharacter {
  id: number;
  /** Names the character's translation (`loyalty.character.{sysname}`) and picture. */
  sysname: string;
  image: string;
}

export interface LoyaltyLevel {
  /** 1 for the first level. */
  level: number;
  /** Names the level's translation (`loyalty.level.{sysname}`). */
  sysname: string;
  /** The experience at which the level is reached. */
  min_points: number;
}

/** Spec §3 progress helper: the current level's threshold, the next one's, and the share done. */
export interface LoyaltyProgress {
  minValue: number;
  maxValue: number;
  /** Percentage of the way from minValue to maxValue, 0 to 100; 100 at the top level. */
  expCount: number;
}

export interface LoyaltyInfo {
  id: number;
  uid: number;
  is_active: boolean;
  points: number;
  experience: number;
  /** The site's name for its points (loyalty config pointsAlias), translated as `loyalty.alias.{pointsAlias}`. */
  pointsAlias: string;
  character: LoyaltyCharacter | null;
  levels: LoyaltyLevel[];
  level: LoyaltyLevel;
  progress: LoyaltyProgress;
}

export interface LoyaltyCharacterList {
  items: LoyaltyCharacter[];
  offset: number;
  limit: number;
  total: number;
}

/** The level an experience count has reached: the last one whose threshold it meets. */
export function levelOf(levels: readonly LoyaltyLevel[], experience: number): LoyaltyLevel {
  const first = levels[0];
  if (!first) throw new Error('a loyalty programme needs at least one level');
  return levels.reduce((reached, level) => (experience >= level.min_points ? level : reached), first);
}

/** Spec §3 progress helper for an experience count on levels sorted by threshold. */
export function levelProgress(levels: readonly LoyaltyLevel[], experience: number): LoyaltyProgress {
  const current = levelOf(levels, experience);
  const next = levels.find((level) => level.min_points > current.min_points);
  if (!next) return { minValue: current.min_points, maxValue: current.min_points, expCount: 100 };
  const share = (experience - current.min_points) / (next.min_points - current.min_points);
  return {
    minValue: current.min_points,
    maxValue: next.min_points,
    expCount: Math.min(100, Math.max(0, Math.floor(share * 100))),
  };
}
