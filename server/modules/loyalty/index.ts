/** The loyalty programme: points for wagers, levels and their rewards. */
export { createLoyaltyService, type LoyaltyDeps, type LoyaltyService } from './service';
export { loyaltyMethods } from './methods';
