/**
 * auth.completeRegistration (spec §2: the socialRegistration popup of a player whose
 * registration is not complete), auth.messengerEntry (spec §3 messenger registration, §4: a
 * visitor entering from the messenger mini-app is registered and signed in automatically) and
 * auth.confirmSecondFactor: a player who turned two-factor on is asked for the code after a
 * social or messenger sign-in too (spec §4 two-factor step), or the outside account alone would
 * be enough to get in.
 */
import { ApiError } from '#common/errors';
import { validateCode } from '#common/validators';
import { requireValid } from '#common/parameter-errors';
import { isLocale } from '#common/locale';
import { defineMethod } from '../../api/define';
import type { Site, SiteSecrets } from '../sites';
import { registrationRules, TWO_FACTOR_EXPIRED_MESSAGE, TWO_FACTOR_REQUIRED_MESSAGE } from '../auth';
import { checkInitData } from './messenger-init-data';

export const MESSENGER_PROVIDER = 'telegram';
export const WRONG_MESSENGER_REGISTRATION = 'Wrong messenger registration';
const MESSENGER_LIMIT = { max: 30, windowMs: 15 * 60 * 1000 };

/**
 * The site's bot token, empty where messenger entry is off: the site turns it on in content
 * (`settings.messenger`), and the token is a site secret (SECRET_{SITE}_MESSENGER_BOT_TOKEN; a
 * demo site has the demo's published token, which is never accepted on any other site).
 */
export function messengerBotToken(site: Site, secrets: SiteSecrets): string {
  const messenger = site.settings.messenger as { is_enabled?: unknown } | undefined;
  if (typeof messenger !== 'object' || messenger === null || messenger.is_enabled === false) return '';
  return secrets.secretOf(site, 'MESSENGER_BOT_TOKEN') ?? '';
}

export const socialMethods = [
  defineMethod({
    name: 'auth.completeRegistration',
    handler: async (ctx, params) => {
      const user = await ctx.services.accounts.findUser(ctx.uid);
      if (!user) throw new ApiError('AuthorizationException', 'Sign in to continue');
      if (user.isRegistrationCompleted) throw new ApiError('InvalidRequestException', 'Registration is already complete');
      const currency = params.currency || user.currency;
      if (!ctx.site.currencies.includes(currency))
        throw new ApiError('InvalidParameterException', 'Invalid parameter: currency', { field: 'currency' });
      const { isTermsRequired } = await registrationRules(ctx);
      if (isTermsRequired && !params.terms)
        throw new ApiError('InvalidParameterException', 'Invalid parameter: terms', {
          field: 'terms',
          errorType: 'truthyCheckbox',
        });
      const completed = await ctx.services.accounts.completeRegistration(user.id, currency);
      // Completed meanwhile by a second request: the first one's choice stands.
      if (!completed) throw new ApiError('InvalidRequestException', 'Registration is already complete');
      return ctx.services.accounts.accountInfo(completed);
    },
  }),
  defineMethod({
    name: 'auth.messengerEntry',
    handler: async (ctx, params) => {
      await ctx.services.rateLimits.consume({ key: `messenger:ip:${ctx.ip}`, ...MESSENGER_LIMIT });
      const botToken = messengerBotToken(ctx.site, ctx.services.siteSecrets);
      if (!botToken) throw new ApiError('InvalidRequestException', 'Messenger entry is not available on this site');
      const check = checkInitData(params.init_data, botToken, Date.now());
      if (!check.isValid) throw new ApiError('AuthorizationException', WRONG_MESSENGER_REGISTRATION, { reason: check.reason });
      const { registration } = check;
      const displayName =
        [registration.firstName, registration.lastName].filter(Boolean).join(' ') || registration.username || null;
      const { user, isNew } = await ctx.services.social.findOrCreatePlayer({
        siteId: ctx.site.id,
        provider: MESSENGER_PROVIDER,
        subject: registration.id,
        email: null,
        isEmailVerified: false,
        displayName,
        currency: ctx.site.defaultCurrency,
        locale:
          isLocale(registration.language_code) && ctx.site.locales.includes(registration.language_code)
            ? registration.language_code
            : ctx.locale,
        // The messenger registers the visitor automatically (spec §4): nothing is left to ask.
        isRegistrationCompleted: true,
      });
      if (isNew)
        await ctx.services.bonuses.grantRegistrationBonus({ siteId: ctx.site.id, userId: user.id, currency: user.currency });
      if (ctx.services.auth.needsSecondFactor(user)) {
        const ticket = await ctx.services.oneTimeSecrets.issueSecondFactorTicket(user.id, ctx.visitorId);
        throw new ApiError('AuthorizationException', TWO_FACTOR_REQUIRED_MESSAGE, { two_factor: 'required', ticket });
      }
      const token = await ctx.services.auth.signInVerified(user, ctx);
      // Rotate: the session this browser had before ends now.
      if (ctx.sessionTokenHash) await ctx.services.auth.revokeSession(ctx.sessionTokenHash);
      ctx.setSession(token);
      return ctx.services.accounts.accountInfo(user);
    },
  }),
  defineMethod({
    name: 'auth.confirmSecondFactor',
    handler: async (ctx, params) => {
      requireValid('code', validateCode(params.code.trim()));
      const expired = () => new ApiError('AuthorizationException', TWO_FACTOR_EXPIRED_MESSAGE, { two_factor: 'expired' });
      const userId = await ctx.services.oneTimeSecrets.secondFactorTicketOwner(params.ticket, ctx.visitorId);
      const user = userId === undefined ? undefined : await ctx.services.accounts.findUser(userId);
      if (!user) throw expired();
      // Rate-limited per player, and a code works once (the last accepted TOTP step is stored).
      await ctx.services.auth.checkSecondFactor(user, params.code.trim());
      if (!(await ctx.services.oneTimeSecrets.useSecondFactorTicket(params.ticket, ctx.visitorId))) throw expired();
      const token = await ctx.services.auth.signInVerified(user, ctx);
      if (ctx.sessionTokenHash) await ctx.services.auth.revokeSession(ctx.sessionTokenHash);
      ctx.setSession(token);
      return ctx.services.accounts.accountInfo(user);
    },
  }),
];
