/** Responsible gaming: deposit and loss limits, time-outs and self-exclusion. */
export { createResponsibleGamingService, type Jurisdiction, type PeriodLimit, type ResponsibleGamingService } from './service';
export { responsibleGamingMethods } from './methods';
// Pure helper: the rules a site's settings impose, read by the cashier as well.
export { jurisdictionOf } from './service';
// The time-out and self-exclusion periods the service knows: the API contract offers the same ones.
export { SELF_EXCLUSION_DURATIONS, TIMEOUT_DURATIONS } from './rules';
