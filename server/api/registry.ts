/** Every product API method, by `service.method` (case-insensitive). */
import { methodKey, type ApiMethod } from './define';
import { metadataMethods } from '../modules/metadata/methods';
import { accountMethods } from '../modules/account/methods';
import { storageMethods } from '../modules/storage/methods';
import { analyticsMethods } from '../modules/analytics/methods';
import { authMethods } from '../modules/auth/methods';
import { recoveryMethods } from '../modules/auth/recovery-methods';
import { profileMethods } from '../modules/account/profile-methods';
import { verificationMethods } from '../modules/verification/methods';
import { responsibleGamingMethods } from '../modules/responsible-gaming/methods';
import { unsubscribeMethods } from '../modules/account/unsubscribe-methods';
import { socialMethods } from '../modules/social/methods';
import { cashierMethods } from '../modules/cashier/methods';
import { campaignMethods } from '../modules/campaigns/methods';
import { gamesMethods } from '../modules/games/methods';
import { gameRoundsMethods } from '../modules/game-rounds/methods';
import { gameHistoryMethods } from '../modules/game-history/methods';
import { freespinsMethods } from '../modules/freespins/methods';
import { loyaltyMethods } from '../modules/loyalty/methods';
import { jurisdictionMethods } from '../modules/game-rounds/jurisdiction-methods';
import { liveGamesMethods } from '../modules/live-games/methods';
import { statefulRoundsMethods } from '../modules/game-rounds/stateful-methods';

const ALL_METHODS: ApiMethod[] = [
  ...metadataMethods,
  ...accountMethods,
  ...storageMethods,
  ...analyticsMethods,
  ...authMethods,
  ...recoveryMethods,
  ...profileMethods,
  ...verificationMethods,
  ...responsibleGamingMethods,
  ...unsubscribeMethods,
  ...socialMethods,
  ...cashierMethods,
  ...campaignMethods,
  ...gamesMethods,
  ...gameRoundsMethods,
  ...gameHistoryMethods,
  ...freespinsMethods,
  ...jurisdictionMethods,
  ...statefulRoundsMethods,
  ...liveGamesMethods,
  ...loyaltyMethods,
] as ApiMethod[];

export const METHOD_REGISTRY: ReadonlyMap<string, ApiMethod> = new Map(
  ALL_METHODS.map((method) => [methodKey(method.service, method.method), method]),
);
