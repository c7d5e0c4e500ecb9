/** auth.* (spec §7): sign-up, sign-in and out, password restore, social and messenger entry. */
import { z } from 'zod';
import type { AccountInfo } from '../api-contract';
import { method, type Done } from './method';

/** A checkbox as forms and JSON send it: 1, true, "1", "true" or "on" mean ticked. */
export const truthy = z
  .union([z.string(), z.boolean(), z.number()])
  .optional()
  .transform((value) => value === true || value === 1 || value === '1' || value === 'true' || value === 'on');

const login = z.string().max(254);
const password = z.string().max(200);

export const authContract = {
  'auth.register': method<AccountInfo>()({
    params: z.object({
      login,
      password,
      currency: z.string().optional(),
      terms: truthy,
      notify: truthy,
      promo_code: z.string().max(64).optional(),
      /** The loyalty character picked in the form (auth config showCharacterSelect). */
      character: z.coerce.number().int().min(1).max(1_000_000).optional(),
    }),
  }),
  'auth.login': method<AccountInfo>()({ params: z.object({ login, password, code: z.string().max(12).optional() }) }),
  /** Spec §7 keeps GET logout for the site itself; from another site it is refused (issue 11). */
  'auth.logout': method<Done>()({ params: z.object({}), isAvailableWhenClosed: true, isCrossSiteRefusedOnGet: true }),
  'auth.restore': method<Done>()({ params: z.object({ login }) }),
  'auth.resetpassword': method<Done>()({ params: z.object({ token: z.string().max(200), password }) }),
  /** Spec §2: the socialRegistration popup of a player whose registration is not complete. */
  'auth.completeRegistration': method<AccountInfo>()({
    params: z.object({ terms: truthy, currency: z.string().max(8).optional() }),
    requiresUser: true,
  }),
  'auth.messengerEntry': method<AccountInfo>()({ params: z.object({ init_data: z.string().min(1).max(4096) }) }),
  'auth.confirmSecondFactor': method<AccountInfo>()({
    params: z.object({ ticket: z.string().min(1).max(100), code: z.string().max(12) }),
  }),
};
