/**
 * Password restore by e-mailed link and reset (auth.restore, auth.resetpassword), and two-factor
 * set-up (account.changeTwoFactorAuth, account.confirmTwoFactorAuth).
 */
import { eq } from 'drizzle-orm';
import QRCode from 'qrcode';
import { z } from 'zod';
import { ApiError } from '#common/errors';
import { localizePath } from '#common/locale';
import { fillMessage, normalizeLogin, validateCode, validatePassword, validatePasswordLength } from '#common/validators';
import { defineMethod } from '../../api/define';
import { users } from '../account/tables';
import { canonicalContact, contactTypeOf } from '../account/service';
import { requireValid } from '../../api/require-valid';
import { hashPassword } from './passwords';
import { generateTotpSecret, matchTotp, otpauthUri } from './totp';
import { siteOrigin } from '../../web/site-origin';

const HOUR_MS = 60 * 60 * 1000;

export const recoveryMethods = [
  defineMethod({
    service: 'auth',
    method: 'restore',
    verbs: ['POST'],
    params: z.object({ login: z.string().max(254) }),
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
    service: 'auth',
    method: 'resetpassword',
    verbs: ['POST'],
    params: z.object({ token: z.string().max(200), password: z.string().max(200) }),
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
      await ctx.services.db
        .update(users)
        .set({ passwordHash: await hashPassword(params.password) })
        .where(eq(users.id, userId));
      await ctx.services.auth.revokeAllSessions(userId);
      return 1;
    },
  }),
  defineMethod({
    service: 'account',
    method: 'changeTwoFactorAuth',
    verbs: ['POST'],
    requiresUser: true,
    params: z.object({ enable: z.enum(['0', '1']), code: z.string().max(12).optional() }),
    handler: async (ctx, params) => {
      const user = await ctx.services.accounts.findUser(ctx.uid);
      if (!user) throw new ApiError('AuthorizationException', 'Sign in to continue');
      if (params.enable === '1') {
        if (user.twoFactorEnabledAt)
          throw new ApiError('InvalidRequestException', 'Two-factor authentication is already enabled');
        const secret = generateTotpSecret();
        await ctx.services.db
          .update(users)
          .set({ twoFactorSecret: secret, twoFactorLastStep: null })
          .where(eq(users.id, user.id));
        const uri = otpauthUri(secret, ctx.site.name, user.login);
        return { secret, otpauth_uri: uri, qr_svg: await QRCode.toString(uri, { type: 'svg', margin: 1 }) };
      }
      // Turning it off needs a current code, so a stolen session alone cannot weaken the account.
      requireValid('code', validateCode(params.code ?? ''));
      await ctx.services.rateLimits.consume({ key: `code:user:${user.id}`, max: 5, windowMs: 15 * 60 * 1000 });
      const step =
        user.twoFactorSecret && user.twoFactorEnabledAt
          ? matchTotp(user.twoFactorSecret, params.code ?? '', Date.now(), user.twoFactorLastStep)
          : null;
      if (step === null)
        throw new ApiError('InvalidParameterException', 'Two-factor code is invalid', {
          field: 'code',
          errorType: 'twoFactorInvalid',
        });
      await ctx.services.db
        .update(users)
        .set({ twoFactorSecret: null, twoFactorEnabledAt: null, twoFactorLastStep: step })
        .where(eq(users.id, user.id));
      return 1;
    },
  }),
  defineMethod({
    service: 'account',
    method: 'confirmTwoFactorAuth',
    verbs: ['POST'],
    requiresUser: true,
    params: z.object({ code: z.string().max(12) }),
    handler: async (ctx, params) => {
      requireValid('code', validateCode(params.code));
      const user = await ctx.services.accounts.findUser(ctx.uid);
      if (!user?.twoFactorSecret || user.twoFactorEnabledAt)
        throw new ApiError('InvalidRequestException', 'Start the two-factor set-up first');
      await ctx.services.rateLimits.consume({ key: `code:user:${user.id}`, max: 5, windowMs: 15 * 60 * 1000 });
      const step = matchTotp(user.twoFactorSecret, params.code.trim(), Date.now(), user.twoFactorLastStep);
      if (step === null)
        throw new ApiError('InvalidParameterException', 'Two-factor code is invalid', {
          field: 'code',
          errorType: 'twoFactorInvalid',
        });
      await ctx.services.db
        .update(users)
        .set({ twoFactorEnabledAt: new Date(), twoFactorLastStep: step })
        .where(eq(users.id, user.id));
      return 1;
    },
  }),
];
