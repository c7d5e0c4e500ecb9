/**
 * Password restore by e-mailed link and reset (auth.restore, auth.resetpassword), and two-factor
 * set-up (account.changeTwoFactorAuth, account.confirmTwoFactorAuth).
 */
import QRCode from 'qrcode';
import { ApiError } from '#common/errors';
import { localizePath } from '#common/locale';
import { fillMessage, normalizeLogin, validateCode, validatePassword, validatePasswordLength } from '#common/validators';
import { defineMethod } from '../../api/define';
import { canonicalContact, contactTypeOf } from '../account';
import { requireValid } from '#common/parameter-errors';
import { siteOrigin } from '../../web/site-origin';

const HOUR_MS = 60 * 60 * 1000;

export const recoveryMethods = [
  defineMethod({
    name: 'auth.restore',
    handler: async (ctx, params) => {
      const raw = normalizeLogin(params.login);
      if (!raw)
        throw new ApiError('InvalidParameterException', 'Invalid parameter: login', { field: 'login', errorType: 'required' });
      const login = canonicalContact(raw);
      await ctx.services.rateLimits.consumeAll([
        { key: `restore:ip:${ctx.ip}`, max: 20, windowMs: HOUR_MS },
        { key: `restore:account:${ctx.site.id}:${login}`, max: 5, windowMs: HOUR_MS },
      ]);
      const user = await ctx.services.accounts.findUserByLogin(ctx.site.id, login);
      // The answer is 1 whether or not the login exists, so restore reveals no accounts.
      if (!user || user.status !== 'active') return 1;
      const token = await ctx.services.oneTimeSecrets.issueResetToken(user.id, login);
      const link = `${siteOrigin(ctx.site, ctx.request.url)}${localizePath('/forms/sign_in', ctx.locale)}?reset_token=${token}`;
      const t = await ctx.services.content.getTranslations(ctx.site.id, ctx.locale);
      await ctx.services.messaging.send({
        siteId: ctx.site.id,
        channel: contactTypeOf(login) === 'email' ? 'email' : 'sms',
        to: login,
        subject: t['mail.reset.subject'] ?? 'Reset your password',
        text: fillMessage(t['mail.reset.body'] ?? 'Open this link to choose a new password: $$link$$', {
          link,
          site: ctx.site.name,
        }),
      });
      return 1;
    },
  }),
  defineMethod({
    name: 'auth.resetpassword',
    handler: async (ctx, params) => {
      requireValid('password', validatePassword(params.password));
      requireValid('password', validatePasswordLength(params.password));
      await ctx.services.rateLimits.consume({ key: `reset:ip:${ctx.ip}`, max: 20, windowMs: HOUR_MS });
      const userId = await ctx.services.oneTimeSecrets.consumeResetToken(params.token);
      if (!userId)
        throw new ApiError('InvalidParameterException', 'The link is invalid or has expired', {
          field: 'token',
          errorType: 'expired',
        });
      await ctx.services.auth.resetPassword(userId, params.password);
      return 1;
    },
  }),
  defineMethod({
    name: 'account.changeTwoFactorAuth',
    handler: async (ctx, params) => {
      const user = await ctx.services.accounts.findUser(ctx.uid);
      if (!user) throw new ApiError('AuthorizationException', 'Sign in to continue');
      if (params.enable === '1') {
        const { secret, otpauthUri } = await ctx.services.auth.startTwoFactorSetup(user, ctx.site.name);
        return { secret, otpauth_uri: otpauthUri, qr_svg: await QRCode.toString(otpauthUri, { type: 'svg', margin: 1 }) };
      }
      requireValid('code', validateCode(params.code ?? ''));
      await ctx.services.auth.disableTwoFactor(user, params.code ?? '');
      return 1;
    },
  }),
  defineMethod({
    name: 'account.confirmTwoFactorAuth',
    handler: async (ctx, params) => {
      requireValid('code', validateCode(params.code));
      const user = await ctx.services.accounts.findUser(ctx.uid);
      if (!user) throw new ApiError('InvalidRequestException', 'Start the two-factor set-up first');
      await ctx.services.auth.confirmTwoFactor(user, params.code.trim());
      return 1;
    },
  }),
];
