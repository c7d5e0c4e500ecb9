/**
 * The product API's one contract (architecture §3): every method by its wire name
 * `service.method`, with its parameters, whether it needs a player, and its answer. The server's
 * defineMethod and the app's client are both typed from it. The app imports it with
 * `import type` only (the schemas are zod, which the browser bundle does without); the verbs it
 * needs at run time are in ./verbs.
 */
import type { z } from 'zod';
import { accountContract } from './account';
import { authContract } from './auth';
import { bannersContract } from './banners';
import { bonusesContract } from './bonuses';
import { campaignsContract } from './campaigns';
import { cashbacksContract } from './cashbacks';
import { cashierContract } from './cashier';
import { eventsContract } from './events';
import { freespinsContract } from './freespins';
import { gamesContract } from './games';
import { loyaltyContract } from './loyalty';
import { metadataContract } from './metadata';
import { popupsContract } from './popups';
import type { MethodContract } from './method';
import { responsibleGamingContract } from './responsible-gaming';
import { sportsbookBetsContract } from './sportsbook-bets';
import { sportsbookContract } from './sportsbook';
import { storageContract } from './storage';
import { verificationContract } from './verification';
import type { METHOD_VERBS } from './verbs';

/** Each service's methods, kept apart so a test can see that no wire name is declared twice. */
export const SERVICE_CONTRACTS = [
  metadataContract,
  eventsContract,
  storageContract,
  authContract,
  accountContract,
  responsibleGamingContract,
  verificationContract,
  cashierContract,
  campaignsContract,
  bonusesContract,
  cashbacksContract,
  popupsContract,
  bannersContract,
  gamesContract,
  freespinsContract,
  loyaltyContract,
  sportsbookContract,
  sportsbookBetsContract,
] as const;

export const API_CONTRACT = {
  ...metadataContract,
  ...eventsContract,
  ...storageContract,
  ...authContract,
  ...accountContract,
  ...responsibleGamingContract,
  ...verificationContract,
  ...cashierContract,
  ...campaignsContract,
  ...bonusesContract,
  ...cashbacksContract,
  ...popupsContract,
  ...bannersContract,
  ...gamesContract,
  ...freespinsContract,
  ...loyaltyContract,
  ...sportsbookContract,
  ...sportsbookBetsContract,
} satisfies Record<string, MethodContract>;

export type ApiContract = typeof API_CONTRACT;
export type MethodName = keyof ApiContract;

/** The verbs table names exactly the contract's methods: this fails to compile when they drift. */
type Drift = Exclude<MethodName, keyof typeof METHOD_VERBS> | Exclude<keyof typeof METHOD_VERBS, MethodName>;
export const VERBS_MATCH_CONTRACT: [Drift] extends [never] ? true : Drift = true;

/** What a caller sends: the schema's input (form values as strings or numbers). */
export type ParamsInput<Name extends MethodName> = z.input<ApiContract[Name]['params']>;
/** What a handler receives: the schema's output, defaults filled in and values coerced. */
export type ParamsOutput<Name extends MethodName> = z.output<ApiContract[Name]['params']>;
/** The answer's `data`. */
export type ResultOf<Name extends MethodName> =
  ApiContract[Name] extends MethodContract<z.ZodType, infer Result> ? Result : never;

export type { HttpVerb } from './verbs';
export { METHOD_VERBS } from './verbs';
export type { MethodContract, Done } from './method';
export type * from './account';
export type * from './banners';
export type * from './bonuses';
export type * from './cashbacks';
export type * from './campaigns';
export type * from './cashier';
export type * from './freespins';
export type * from './games';
export type * from './loyalty';
export type * from './metadata';
export type * from './popups';
export type * from './responsible-gaming';
export type * from './sportsbook-bets';
export type * from './sportsbook';
export type * from './verification';
