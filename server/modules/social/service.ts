/**
 * Sign-in through outside identities: the OAuth states of social sign-in (single use, hashed,
 * expiring, bound to the browser that started them) and the identities that map a provider's
 * subject to a player. A first sign-in creates the player; later ones find the same player.
 */
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Locale } from '#common/locale';
import type { Database } from '../../db/client';
import type { AccountService, UserRow } from '../account';
import { oauthStates, socialIdentities } from './tables';
import { pkceChallenge, randomToken, sha256Hex } from './pkce';
import { createDevProviderStore } from './dev-provider-store';

export const STATE_TTL_MS = 10 * 60 * 1000;
export type TypeAuth = 'login' | 'register';

export interface OauthState {
  siteId: string;
  service: string;
  codeVerifier: string;
  typeAuth: TypeAuth;
  redirectUrl: string;
  callbackUri: string;
  locale: string;
}

export interface ExternalIdentity {
  siteId: string;
  provider: string;
  subject: string;
  email: string | null;
  isEmailVerified: boolean;
  displayName: string | null;
  currency: string;
  locale: Locale;
  isRegistrationCompleted: boolean;
}

/** Thrown inside the creating transaction when another request created the same identity first. */
class IdentityTaken extends Error {}

export function createSocialService({ db, accounts }: { db: Database; accounts: AccountService }) {
  async function findIdentityUser(siteId: string, provider: string, subject: string): Promise<UserRow | undefined> {
    const [identity] = await db
      .select({ userId: socialIdentities.userId })
      .from(socialIdentities)
      .where(
        and(eq(socialIdentities.siteId, siteId), eq(socialIdentities.provider, provider), eq(socialIdentities.subject, subject)),
      )
      .limit(1);
    return identity && accounts.findUser(identity.userId);
  }

  return {
    /** Codes and tokens of the built-in development identity provider (/oauth/dev). */
    devProvider: createDevProviderStore(db),

    /** Stores a new flow and returns its state and the PKCE challenge to send to the provider. */
    async startFlow(
      input: Omit<OauthState, 'codeVerifier'> & { visitorId: string },
    ): Promise<{ state: string; codeChallenge: string }> {
      const state = randomToken();
      const codeVerifier = randomToken();
      const now = Date.now();
      // Finished and abandoned flows are of no use after they expire.
      await db.delete(oauthStates).where(lt(oauthStates.expiresAt, new Date(now - STATE_TTL_MS)));
      await db
        .insert(oauthStates)
        .values({ ...input, stateHash: sha256Hex(state), codeVerifier, expiresAt: new Date(now + STATE_TTL_MS) });
      return { state, codeChallenge: pkceChallenge(codeVerifier) };
    },

    /**
     * Uses a state up: answers its flow only the first time, before it expires, for the site,
     * service and browser that started it. One UPDATE … RETURNING, so two callbacks racing with
     * the same state cannot both win.
     */
    async consumeState(input: {
      state: string;
      siteId: string;
      service: string;
      visitorId: string;
    }): Promise<OauthState | undefined> {
      if (!input.state || input.state.length > 256) return undefined;
      const [row] = await db
        .update(oauthStates)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(oauthStates.stateHash, sha256Hex(input.state)),
            isNull(oauthStates.usedAt),
            gt(oauthStates.expiresAt, new Date()),
          ),
        )
        .returning();
      if (!row || row.siteId !== input.siteId || row.service !== input.service || row.visitorId !== input.visitorId)
        return undefined;
      return row;
    },

    findIdentityUser,

    /** The player of an outside identity, created (with the identity) on the first sign-in. */
    async findOrCreatePlayer(identity: ExternalIdentity): Promise<{ user: UserRow; isNew: boolean }> {
      const existing = await findIdentityUser(identity.siteId, identity.provider, identity.subject);
      if (existing) {
        await db
          .update(socialIdentities)
          .set({ lastSignInAt: sql`now()` })
          .where(
            and(
              eq(socialIdentities.siteId, identity.siteId),
              eq(socialIdentities.provider, identity.provider),
              eq(socialIdentities.subject, identity.subject),
            ),
          );
        return { user: existing, isNew: false };
      }
      try {
        return await db.transaction(async (tx) => {
          const user = await accounts.createExternalUser(
            {
              siteId: identity.siteId,
              email: identity.email,
              isEmailConfirmed: identity.isEmailVerified,
              fallbackLogin: `${identity.provider}:${identity.subject}`,
              currency: identity.currency,
              locale: identity.locale,
              isRegistrationCompleted: identity.isRegistrationCompleted,
            },
            tx,
          );
          const [created] = await tx
            .insert(socialIdentities)
            .values({
              siteId: identity.siteId,
              provider: identity.provider,
              subject: identity.subject,
              userId: user.id,
              email: identity.email,
              displayName: identity.displayName,
            })
            .onConflictDoNothing()
            .returning({ id: socialIdentities.id });
          if (!created) throw new IdentityTaken();
          return { user, isNew: true };
        });
      } catch (error) {
        // Another request signed the same identity in first (its row, or its fallback login,
        // made ours conflict): that request's player is this identity's player.
        const winner = await findIdentityUser(identity.siteId, identity.provider, identity.subject);
        if (!winner) throw error instanceof IdentityTaken ? new Error('identity conflict without a row') : error;
        return { user: winner, isNew: false };
      }
    },
  };
}

export type SocialService = ReturnType<typeof createSocialService>;
