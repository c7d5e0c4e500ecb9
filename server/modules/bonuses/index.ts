/** The bonus engine (issue 13): casino and betting bonuses from site templates, their wagering and their money. */
export { createBonusService, BonusGrantError, type BonusService, type BonusServiceDeps, type GrantRequest } from './service';
export { bonusesMethods } from './methods';
// A column for a bet's own first statement: whether the bonus funding has anything to look at.
export { hasWageredBonusSql } from './funding';
export type { BonusTemplate } from './rules';
export type { FreespinWin } from './freespin-wins';
export type { BettingBonusSettlement, BettingBonusStake } from './betting';
export type { BonusRow, BonusSource, BonusStatus } from './tables';
// A site's programme from its settings: campaigns resolve their offers' templates with it.
export type { BonusProgramme } from './programme';
