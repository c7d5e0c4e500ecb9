import { ApiError } from '#common/errors';
import { defineMethod, type ApiContext } from '../../api/define';
import { createAccessToken } from './service';

/** The site's verification secret (sandbox provider); configured per site. */
export function verificationSecret(ctx: Pick<ApiContext, 'site'>): string {
  const secret = (ctx.site.settings.verification as { secret?: string } | undefined)?.secret;
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
