/** auth.register, auth.login, auth.logout (spec §7), validated with the shared §5 validators. */
import { ApiError } from '#common/errors';
import { normalizeLogin, validateEmail, validatePassword, validatePasswordLength, validatePhone } from '#common/validators';
import { requireValid } from '#common/parameter-errors';
import { defineMethod, type ApiContext } from '../../api/define';
import { canonicalContact, contactTypeOf } from '../account';

function checkLogin(raw: string): string {
  const login = normalizeLogin(raw);
  requireValid('login', contactTypeOf(login) === 'email' ? validateEmail(login) : validatePhone(login));
  return canonicalContact(login);
}

export async function registrationRules(ctx: ApiContext): Promise<{ isTermsRequired: boolean }> {
  const config = await ctx.services.content.getConfig(ctx.site.id, ctx.locale);
  const registration = (config['auth-config'].registration ?? {}) as { terms?: { isActive?: boolean } };
  return { isTermsRequired: registration.terms?.isActive === true };
}

export const authMethods = [
  defineMethod({
    name: 'auth.register',
    handler: async (ctx, params) => {
      if (ctx.uid > 0) throw new ApiError('InvalidRequestException', 'Already signed in');
      const login = checkLogin(params.login);
      requireValid('password', validatePassword(params.password));
      requireValid('password', validatePasswordLength(params.password));
      const currency = params.currency || ctx.site.defaultCurrency;
      if (!ctx.site.currencies.includes(currency))
        throw new ApiError('InvalidParameterException', 'Invalid parameter: currency', { field: 'currency' });
      const { isTermsRequired } = await registrationRules(ctx);
      if (isTermsRequired && !params.terms)
        throw new ApiError('InvalidParameterException', 'Invalid parameter: terms', {
          field: 'terms',
          errorType: 'truthyCheckbox',
        });
      // Checked before the account exists: a wrong character must not leave a half-made sign-up.
      if (params.character !== undefined) await ctx.services.loyalty.checkCharacterId(ctx.site.id, params.character, 'character');
      const { user, token } = await ctx.services.auth.register({
        siteId: ctx.site.id,
        login,
        password: params.password,
        currency,
        locale: ctx.locale,
        isSubscribed: params.notify,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
      });
      ctx.setSession(token);
      await ctx.services.loyalty.openAccount(ctx.site.id, user.id, params.character ?? null);
      await ctx.services.bonuses.grantRegistrationBonus({ siteId: ctx.site.id, userId: user.id, currency: user.currency });
      return ctx.services.accounts.accountInfo(user);
    },
  }),
  defineMethod({
    name: 'auth.login',
    handler: async (ctx, params) => {
      const login = normalizeLogin(params.login);
      if (!login || !params.password)
        throw new ApiError('InvalidParameterException', 'Invalid parameter: login', {
          field: login ? 'password' : 'login',
          errorType: 'required',
        });
      const { user, token, deviceToken } = await ctx.services.auth.login({
        siteId: ctx.site.id,
        login: canonicalContact(login),
        password: params.password,
        code: params.code?.trim() || undefined,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        deviceToken: ctx.readDeviceToken(),
      });
      // Rotate: the session this browser had before signing in ends now.
      if (ctx.sessionTokenHash) await ctx.services.auth.revokeSession(ctx.sessionTokenHash);
      ctx.setSession(token);
      ctx.trustDevice(deviceToken);
      return ctx.services.accounts.accountInfo(user);
    },
  }),
  defineMethod({
    name: 'auth.logout',
    handler: async (ctx) => {
      if (ctx.sessionTokenHash) await ctx.services.auth.revokeSession(ctx.sessionTokenHash);
      ctx.setSession(null);
      return 1;
    },
  }),
];
