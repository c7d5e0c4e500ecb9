/** Freespin packs' public face (architecture §3): the service, its types and methods. */
export {
  AWARD_MAX_COUNT,
  AWARD_MAX_VALID_DAYS,
  createFreespinsService,
  FREESPINS_PAGE_MAX,
  packStatus,
  WAGERING_MAX,
  type AwardInput,
  type FreespinPackView,
  type FreespinRound,
  type FreespinsDeps,
  type FreespinsService,
  type FreespinStatus,
} from './service';
export { freespinsMethods } from './methods';
