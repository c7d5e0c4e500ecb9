/** verification.* (spec §7): the identity check of the sandbox provider. */
import { z } from 'zod';
import { method } from './method';

export interface VerificationApplicant {
  applicant_id: string;
  status: string;
}

export interface VerificationAccessToken {
  token: string;
  url: string;
}

export const verificationContract = {
  'verification.createApplicant': method<VerificationApplicant>()({ params: z.object({}), requiresUser: true }),
  'verification.getAccessToken': method<VerificationAccessToken>()({
    params: z.object({ externalActionId: z.string().max(100).optional() }),
    requiresUser: true,
  }),
};
