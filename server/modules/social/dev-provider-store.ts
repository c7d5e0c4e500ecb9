/**
 * Storage of the built-in development identity provider: authorization codes (single use, one
 * minute, bound to client, redirect_uri and PKCE challenge) and the access tokens they become.
 * Only hashes of codes and tokens are kept.
 */
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { devOauthGrants } from './tables';
import { randomToken, sha256Hex } from './pkce';

export const DEV_CODE_TTL_MS = 60 * 1000;
export const DEV_ACCESS_TOKEN_TTL_MS = 10 * 60 * 1000;

export interface DevGrant {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  subject: string;
  email: string;
  name: string;
}

/** The dev provider's subject of an e-mail: stable, so the same address is the same identity. */
export function devSubject(email: string): string {
  return `dev-${sha256Hex(email.trim().toLowerCase()).slice(0, 32)}`;
}

export function createDevProviderStore(db: Database) {
  return {
    async issueCode(siteId: string, grant: DevGrant): Promise<string> {
      const code = randomToken();
      const now = Date.now();
      await db.delete(devOauthGrants).where(lt(devOauthGrants.codeExpiresAt, new Date(now - DEV_ACCESS_TOKEN_TTL_MS)));
      await db
        .insert(devOauthGrants)
        .values({ ...grant, siteId, codeHash: sha256Hex(code), codeExpiresAt: new Date(now + DEV_CODE_TTL_MS) });
      return code;
    },

    /** Uses a code up (whatever the outcome of the checks that follow): a code is tried once. */
    async redeemCode(siteId: string, code: string): Promise<DevGrant | undefined> {
      const [row] = await db
        .update(devOauthGrants)
        .set({ codeUsedAt: new Date() })
        .where(
          and(
            eq(devOauthGrants.codeHash, sha256Hex(code)),
            eq(devOauthGrants.siteId, siteId),
            isNull(devOauthGrants.codeUsedAt),
            gt(devOauthGrants.codeExpiresAt, new Date()),
          ),
        )
        .returning();
      return row;
    },

    async issueAccessToken(siteId: string, code: string): Promise<string> {
      const token = randomToken();
      await db
        .update(devOauthGrants)
        .set({ accessTokenHash: sha256Hex(token), accessExpiresAt: new Date(Date.now() + DEV_ACCESS_TOKEN_TTL_MS) })
        .where(and(eq(devOauthGrants.codeHash, sha256Hex(code)), eq(devOauthGrants.siteId, siteId)));
      return token;
    },

    async findByAccessToken(siteId: string, token: string): Promise<DevGrant | undefined> {
      const [row] = await db
        .select()
        .from(devOauthGrants)
        .where(
          and(
            eq(devOauthGrants.accessTokenHash, sha256Hex(token)),
            eq(devOauthGrants.siteId, siteId),
            gt(devOauthGrants.accessExpiresAt, new Date()),
          ),
        )
        .limit(1);
      return row;
    },
  };
}
