/** Every product API method, by `service.method` (case-insensitive). */
import { methodKey, type ApiMethod } from './define';
import { metadataMethods } from '../modules/metadata';
import { accountMethods, profileMethods, unsubscribeMethods } from '../modules/account';
import { storageMethods } from '../modules/storage';
import { analyticsMethods } from '../modules/analytics';
import { authMethods, recoveryMethods } from '../modules/auth';
import { verificationMethods } from '../modules/verification';
import { responsibleGamingMethods } from '../modules/responsible-gaming';
import { socialMethods } from '../modules/social';
import { cashierMethods } from '../modules/cashier';
import { campaignMethods } from '../modules/campaigns';
import { gamesMethods } from '../modules/games';
import { gameLaunchMethods } from '../modules/game-launch';
import { gameRoundsMethods, jurisdictionMethods, statefulRoundsMethods } from '../modules/game-rounds';
import { gameHistoryMethods } from '../modules/game-history';
import { bonusesMethods } from '../modules/bonuses';
import { cashbacksMethods } from '../modules/cashbacks';
import { bannersMethods } from '../modules/banners';
import { popupsMethods } from '../modules/popups';
import { freespinsMethods } from '../modules/freespins';
import { loyaltyMethods } from '../modules/loyalty';
import { liveGamesMethods } from '../modules/live-games';
import { sportsbookBetMethods, sportsbookMethods } from '../modules/sportsbook';

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
  ...gameLaunchMethods,
  ...gameRoundsMethods,
  ...gameHistoryMethods,
  ...freespinsMethods,
  ...bonusesMethods,
  ...cashbacksMethods,
  ...bannersMethods,
  ...popupsMethods,
  ...jurisdictionMethods,
  ...statefulRoundsMethods,
  ...liveGamesMethods,
  ...loyaltyMethods,
  ...sportsbookMethods,
  ...sportsbookBetMethods,
];

export const METHOD_REGISTRY: ReadonlyMap<string, ApiMethod> = new Map(
  ALL_METHODS.map((method) => [methodKey(method.service, method.method), method]),
);
