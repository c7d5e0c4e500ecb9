/**
 * account.* (spec §7): the account and its balances, profile and contacts, password and
 * two-factor set-up, currency, deposit limit and identity verification.
 */
import { z } from 'zod';
import type { AccountInfo } from '../api-contract';
import type { CurrencyRates, DepositLimitView } from '../cashier-contract';
import { method, type Done } from './method';

export type { AccountInfo };

export type AccountBalances = AccountInfo['balances'];

export interface ProfileContact {
  type: 'email' | 'phone';
  contact: string;
  is_confirmed: boolean;
  is_subscribed: boolean;
  phone_country_code?: string | null;
}

/** account.getprofileinfo: the profile fields of spec §3 ('' when unset), contacts and document. */
export interface ProfileInfo {
  first_name: string;
  last_name: string;
  birth_date: string;
  document_number: string;
  country: string;
  country_code: string;
  region: string;
  home_town: string;
  address: string;
  postcode: string;
  sex: number;
  fakename: string;
  contacts: ProfileContact[];
  document: { type: string; number: string };
}

/** The fields a player fills in (spec §3 profile), each checked by its spec §5 validator. */
export type ProfileFields = Omit<ProfileInfo, 'sex' | 'fakename' | 'contacts' | 'document'>;

/** account.changeTwoFactorAuth with enable=1: the secret to enrol in an authenticator app. */
export interface TwoFactorSetup {
  secret: string;
  otpauth_uri: string;
  qr_svg: string;
}

const contact = z.string().trim().min(1).max(254);
const password = z.string().max(200);
const signedIn = { requiresUser: true } as const;

export const accountContract = {
  'account.getInfo': method<AccountInfo>()({ params: z.object({}) }),
  'account.getBalance': method<AccountBalances>()({ params: z.object({}), ...signedIn }),
  'account.getprofileinfo': method<ProfileInfo>()({ params: z.object({ fields: z.string().optional() }), ...signedIn }),
  /** Any of the profile fields; each is checked by its spec §5 validator. */
  'account.saveProfileInfo': method<Done>()({ params: z.record(z.string(), z.unknown()), ...signedIn }),
  'account.addcontact': method<Done>()({
    params: z.object({
      contact,
      phone_country_code: z
        .string()
        .regex(/^\+?\d{1,4}$/)
        .optional(),
    }),
    ...signedIn,
  }),
  'account.sendconfirmationtocontact': method<Done>()({ params: z.object({ contact }), ...signedIn }),
  'account.confirmContact': method<Done>()({ params: z.object({ contact, code: z.string().max(12) }), ...signedIn }),
  'account.changeSubscription': method<Done>()({
    params: z.object({ contact, subscription: z.enum(['0', '1']) }),
    ...signedIn,
  }),
  'account.changefakename': method<Done>()({ params: z.object({ fakename: z.string().max(40) }), ...signedIn }),
  'account.changelocale': method<Done>()({ params: z.object({ locale: z.string() }), ...signedIn }),
  'account.changepassword': method<Done>()({
    params: z.object({ old_password: password, new_password: password, new_password_repeated: password.optional() }),
    ...signedIn,
  }),
  /** The signed link at the foot of an e-mail: user id, contact, signature. */
  'account.unsubscribe': method<Done>()({
    params: z.object({ u: z.coerce.number().int().positive(), c: z.string().min(1).max(254), s: z.string().min(10).max(100) }),
  }),
  'account.changeTwoFactorAuth': method<TwoFactorSetup | Done>()({
    params: z.object({ enable: z.enum(['0', '1']), code: z.string().max(12).optional() }),
    ...signedIn,
  }),
  'account.confirmTwoFactorAuth': method<Done>()({ params: z.object({ code: z.string().max(12) }), ...signedIn }),
  'account.getcurrencyrates': method<CurrencyRates>()({ params: z.object({}) }),
  'account.setCurrency': method<Done>()({ params: z.object({ currency: z.string().min(3).max(8) }), ...signedIn }),
  'account.getDepositLimit': method<DepositLimitView>()({ params: z.object({}), ...signedIn }),
  'account.setUserOnVerification': method<Done>()({ params: z.object({}), ...signedIn }),
};
