/** The bonus engine (issue 13): casino and betting bonuses from site templates, their wagering and their money. */
export { createBonusService, BonusGrantError, type BonusService, type BonusServiceDeps, type GrantRequest } from './service';
export { bonusesMethods } from './methods';
export type { BonusTemplate } from './rules';
export type { BonusRow, BonusSource, BonusStatus } from './tables';
// A site's programme from its settings: campaigns resolve their offers' templates with it.
export type { BonusProgramme } from './programme';
