/** Analytics: page hits and tracked events of visitors. */
export { createAnalyticsService, type AnalyticsService, type HitInput } from './service';
export { analyticsMethods } from './methods';
