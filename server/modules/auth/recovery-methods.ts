/**
 * Password restore by e-mailed link and reset (auth.restore, auth.resetpassword), and two-factor
 * set-up (account.changeTwoFactorAuth, account.confirmTwoFactorAuth).
 */
import QRCode from 'qrcode';
import { ApiError } from '#common/errors';
import { isLocale, localizePath, type Locale } from '#common/locale';
import { fillMessage, normalizeLogin, validateCode, validatePassword, validatePasswordLength } from '#common/validators';
import { defineMethod, type ApiContext } from '../../api/define';
import type { JobHandler } from '../jobs';
import { canonicalContact, contactTypeOf } from '../account';
import { requireValid } from '#common/parameter-errors';
import { siteOrigin } from '../../web/site-origin';

const HOUR_MS = 60 * 60 * 1000;

/** What auth.restore hands the job that sends the link: enough to write it without the request. */
interface RestorePayload {
  siteId: string;
  login: string;
  locale: Locale;
  /** The site's own origin, as the request resolved it (never a forged Host). */
  origin: string;
}

function isRestorePayload(value: unknown): value is RestorePayload {
  const payload = value as Partial<RestorePayload> | null;
  return (
    typeof payload?.siteId === 'string' &&
    typeof payload.login === 'string' &&
    typeof payload.origin === 'string' &&
    isLocale(payload.locale)
  );
}

type RestoreServices = Pick<ApiContext['services'], 'accounts' | 'oneTimeSecrets' | 'content' | 'messaging' | 'sites'>;

/**
 * The job behind auth.restore: for an active account, a reset token and the e-mail or SMS with
 * its link; for any other login, nothing. It runs apart from the request, so the request does the
 * same work whether the login exists or not (issue 11: restore answered faster for unknown logins).
 */
export function sendRestoreLinkJob(services: RestoreServices): JobHandler {
  return async (payload) => {
    if (!isRestorePayload(payload)) return;
    const user = await services.accounts.findUserByLogin(payload.siteId, payload.login);
    if (!user || user.status !== 'active') return;
    const site = (await services.sites.listSites()).find((candidate) => candidate.id === payload.siteId);
    const token = await services.oneTimeSecrets.issueResetToken(user.id, payload.login);
    const link = `${payload.origin}${localizePath('/forms/sign_in', payload.locale)}?reset_token=${token}`;
    const t = await services.content.getTranslations(payload.siteId, payload.locale);
    await services.messaging.send({
      siteId: payload.siteId,
      channel: contactTypeOf(payload.login) === 'email' ? 'email' : 'sms',
      to: payload.login,
      subject: t['mail.reset.subject'] ?? 'Reset your password',
      text: fillMessage(t['mail.reset.body'] ?? 'Open this link to choose a new password: $$link$$', {
        link,
        site: site?.name ?? '',
      }),
    });
  };
}

export const RESTORE_JOB = 'auth.restore';

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
      // The same steps for every login: the lookup and the message happen in the job, so neither
      // the answer nor its time says whether the login exists.
      const payload: RestorePayload = {
        siteId: ctx.site.id,
        login,
        locale: ctx.locale,
        origin: siteOrigin(ctx.site, ctx.url),
      };
      await ctx.services.jobs.enqueue(RESTORE_JOB, payload);
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
