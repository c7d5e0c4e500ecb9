/**
 * The HTTP verbs of every product-API method, by wire name. Kept apart from the schemas, free of
 * zod, so the browser client can pick a method's verb without bundling the validators; the
 * contract index checks at compile time that both name the same methods. The app sends the
 * first verb listed.
 */
export type HttpVerb = 'GET' | 'POST';

const GET = ['GET'] as const;
const POST = ['POST'] as const;
const GET_OR_POST = ['GET', 'POST'] as const;

export const METHOD_VERBS = {
  'metadata.getgeneralinfo': GET,
  'metadata.get': GET,
  'events.handle': GET_OR_POST,
  'storage.get': GET,
  'storage.getKeys': GET,
  'storage.set': POST,

  'auth.register': POST,
  'auth.login': POST,
  'auth.logout': GET_OR_POST,
  'auth.restore': POST,
  'auth.resetpassword': POST,
  'auth.completeRegistration': POST,
  'auth.messengerEntry': POST,
  'auth.confirmSecondFactor': POST,

  'account.getInfo': GET,
  'account.getBalance': GET,
  'account.getprofileinfo': GET,
  'account.saveProfileInfo': POST,
  'account.addcontact': POST,
  'account.sendconfirmationtocontact': POST,
  'account.confirmContact': POST,
  'account.changeSubscription': POST,
  'account.changefakename': POST,
  'account.changelocale': POST,
  'account.changepassword': POST,
  'account.unsubscribe': POST,
  'account.changeTwoFactorAuth': POST,
  'account.confirmTwoFactorAuth': POST,
  'account.getcurrencyrates': GET,
  'account.setCurrency': POST,
  'account.getDepositLimit': GET,
  'account.setUserOnVerification': POST,

  'responsibleGaming.get': GET,
  'responsibleGaming.setDepositLimit': POST,
  'responsibleGaming.setRealityCheck': POST,
  'responsibleGaming.takeTimeout': POST,
  'responsibleGaming.selfExclude': POST,
  'responsibleGaming.getSessionSummary': GET,

  'verification.createApplicant': POST,
  'verification.getAccessToken': POST,

  'cashier.getpaymentmethods': GET,
  'cashier.getdepositsettings': GET,
  'cashier.makedeposit': POST,
  'cashier.getdepositinfo': GET,
  'cashier.gethistory': GET,
  'cashier.getwithdrawsettings': GET,
  'cashier.getbanks': GET,
  'cashier.makewithdrawal': POST,
  'cashier.cancelwithdrawal': POST,

  'campaigns.getoffers': GET,
  'campaigns.checkPromocode': POST,
  'campaigns.activateOffer': POST,
  'campaigns.takepromotions': POST,

  'games.get': GET,
  'games.getCategories': GET,
  'games.getProviders': GET,
  'games.getLikes': GET,
  'games.getWinners': GET,
  'games.addLike': POST,
  'games.removeLike': POST,
  'games.getHistory': GET,
  'games.createhistoryexportrequest': POST,
  'games.gethistoryexportrequest': GET,
  'games.getSettings': GET,
  'games.getSeeds': GET,
  'games.setClientSeed': POST,
  'games.rotateSeeds': POST,
  'games.play': POST,
  'games.getRounds': GET,
  'games.verifyRound': GET,
  'games.start': POST,
  'games.act': POST,
  'games.getOpenRound': GET,
  'games.launch': POST,
  'games.getLiveState': GET,
  'games.placeLiveBet': POST,
  'games.cashOut': POST,
  'games.getLiveBets': GET,
  'games.verifyLiveRound': GET,

  'freespins.get': GET,

  'bonuses.get': GET,
  'bonuses.activate': POST,
  'bonuses.deactivate': POST,
  'bonuses.remove': POST,
  'BettingBonuses.get': GET,
  'BettingBonuses.activate': POST,
  'BettingBonuses.remove': POST,

  'sportsbook.placeBet': POST,
  'sportsbook.cashOut': POST,
  'sportsbook.getBets': GET,

  'cashbacks.get': GET,
  'cashbacks.payout': POST,
  'cashbacks.remove': POST,

  'popups.get': GET,

  'banners.get': GET,

  'loyalty.getinfo': GET,
  'loyalty.getcharacters': GET,
  'loyalty.setcharacter': POST,

  'sportsbook.getSports': GET,
  'sportsbook.getEvents': GET,
  'sportsbook.getEvent': GET,
  'sportsbook.getTournaments': GET,
} as const satisfies Record<string, readonly HttpVerb[]>;
