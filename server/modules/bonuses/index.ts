/** The bonus engine (issue 13): casino and betting bonuses from site templates, their wagering and their money. */
export { createBonusService, BonusGrantError, type BonusService, type BonusServiceDeps, type GrantRequest } from './service';
export { bonusesMethods } from './methods';
export { bonusError, type BonusErrorCode } from './lifecycle';
// Pure rules, public so the round intake's hook, the cashier and the sportsbook can reason with them.
export { bonusTemplateSchema, jurisdictionSchema, type BonusTemplate, type Jurisdiction } from './rules';
export type { BonusRow, BonusSource, BonusStatus } from './tables';
// A site's programme from its settings: campaigns resolve their offers' templates with it.
export { bonusProgramme, type BonusProgramme } from './programme';
