import { ApiError } from '#common/errors';
import { defineMethod, type ApiContext } from '../../api/define';
import { isDemoSite, isKycSandboxSite, SANDBOX_PROVIDER } from '../sites';
import { createAccessToken } from './service';

/**
 * The KYC sandbox's secret for this site, or undefined where the sandbox may not act: a site not
 * marked demo, or one whose verification provider is not the sandbox (issue 11, point 1). The
 * secret is the demo's published value, from the site secrets, never from content.
 */
export function kycSandboxSecret(ctx: Pick<ApiContext, 'site' | 'services'>): string | undefined {
  return isKycSandboxSite(ctx.site) ? ctx.services.siteSecrets.secretOf(ctx.site, 'KYC') : undefined;
}

/**
 * The secret our KYC webhook checks: the sandbox's on a demo site that uses it; on a real site
 * with another provider, the provider's secret from the environment (SECRET_{SITE}_KYC).
 */
export function kycWebhookSecret(ctx: Pick<ApiContext, 'site' | 'services'>): string | undefined {
  if (isDemoSite(ctx.site)) return kycSandboxSecret(ctx);
  const provider = (ctx.site.settings.verification as { provider?: unknown } | undefined)?.provider;
  if (typeof provider !== 'string' || provider === SANDBOX_PROVIDER) return undefined;
  return ctx.services.siteSecrets.secretOf(ctx.site, 'KYC');
}

/** The site's verification secret; ApplicationUnavailableException where no provider can act. */
export function verificationSecret(ctx: Pick<ApiContext, 'site' | 'services'>): string {
  const secret = kycSandboxSecret(ctx);
  if (!secret) throw new ApiError('ApplicationUnavailableException', 'Identity verification is not configured');
  return secret;
}

export const verificationMethods = [
  defineMethod({
    name: 'account.setUserOnVerification',
    handler: async (ctx) => {
      await ctx.services.verification.setOnVerification(ctx.uid);
      return 1;
    },
  }),
  defineMethod({
    name: 'verification.createApplicant',
    handler: async (ctx) => {
      const applicant = await ctx.services.verification.createApplicant(ctx.uid, ctx.site.id);
      if (!applicant) throw new ApiError('UnknownErrorException', 'Unknown error');
      return { applicant_id: applicant.id, status: applicant.status };
    },
  }),
  defineMethod({
    name: 'verification.getAccessToken',
    handler: async (ctx, params) => {
      const applicant = await ctx.services.verification.findApplicantOf(ctx.uid);
      if (!applicant) throw new ApiError('SumsubVerificationRequiredException', 'Create the applicant first');
      const token = createAccessToken(verificationSecret(ctx), applicant.id, params.externalActionId);
      return { token, url: `/kyc/sandbox?token=${encodeURIComponent(token)}` };
    },
  }),
];
