/**
 * Social sign-in through a pop-up (spec §1, §3, §7): the site opens
 * /oauth/init?service=…&redirect_url=…&type_auth=login|register in a 640×480 window. We run the
 * OAuth 2.0 authorization code flow with PKCE (S256) and a single-use state; the provider sends
 * the pop-up back to /oauth/callback/{service}, where the code is exchanged, the player found or
 * created by (provider, subject), a session opened, and a tiny page tells the opener and closes.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getCookie } from 'hono/cookie';
import type { Logger } from 'pino';
import { safeRedirectTarget } from '#common/address';
import { ApiError } from '#common/errors';
import { DEFAULT_LOCALE, isLocale, localizePath, LOCALE_COOKIE, type Locale } from '#common/locale';
import { validateEmail } from '#common/validators';
import type { AppEnv } from './app-env';
import { siteOrigin } from './site-origin';
import { writeSessionCookie } from './session-cookie';
import { clientSecretOf, siteSocialProviders, type SocialProvider, type TypeAuth } from '../modules/social';
import { createDevIdentityProviderRoutes } from './oauth-dev-provider';
import { socialResultPage, type SocialFailure } from './oauth-pages';

type Fetch = (request: Request) => Response | Promise<Response>;

const PROVIDER_TIMEOUT_MS = 10_000;
const INIT_LIMIT = { max: 60, windowMs: 15 * 60 * 1000 };

/** What a provider tells us about the person (OpenID Connect userinfo names). */
export interface ProviderProfile {
  subject: string;
  email: string | null;
  isEmailVerified: boolean;
  name: string | null;
}

class ProviderError extends Error {}

function popupLocale(c: Context<AppEnv>): Locale {
  const site = c.get('site');
  const cookie = getCookie(c, LOCALE_COOKIE);
  return isLocale(cookie) && site.locales.includes(cookie) ? cookie : (site.locales[0] ?? DEFAULT_LOCALE);
}

async function providersOf(c: Context<AppEnv>): Promise<Map<string, SocialProvider>> {
  const site = c.get('site');
  const config = await c.get('services').content.getConfig(site.id, site.locales[0] ?? DEFAULT_LOCALE);
  return siteSocialProviders(site, config['auth-config']);
}

async function failure(c: Context<AppEnv>, reason: SocialFailure, status: 400 | 403 | 404 | 429 | 502 | 503) {
  const site = c.get('site');
  const locale = popupLocale(c);
  const translations = await c.get('services').content.getTranslations(site.id, locale);
  return c.html(
    socialResultPage({ locale, translations, result: { status: 'error', reason }, nonce: c.get('cspNonce') }),
    status,
  );
}

/**
 * Calls a provider endpoint: a path is our own server (the development provider), answered
 * in-process and never over the network; anything else is an https address of the provider.
 */
/** The stored return address, decided again where it is used: a row is no safer than what wrote it. */
function storedTarget(redirectUrl: string, locale: Locale): string {
  return safeRedirectTarget(redirectUrl, localizePath('/', locale));
}

function callProvider(c: Context<AppEnv>, fetchInternal: Fetch, url: string, init: RequestInit): Promise<Response> {
  if (url.startsWith('/')) {
    const headers = new Headers(init.headers);
    headers.set('host', c.req.header('host') ?? new URL(c.req.url).host);
    return Promise.resolve(fetchInternal(new Request(new URL(url, new URL(c.req.url).origin), { ...init, headers })));
  }
  if (!url.startsWith('https://')) throw new ProviderError('provider endpoint is not https');
  return fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
}

async function readJson(response: Response): Promise<Record<string, unknown>> {
  if (!response.ok) throw new ProviderError(`provider answered ${response.status}`);
  const body = (await response.json().catch(() => undefined)) as unknown;
  if (typeof body !== 'object' || body === null) throw new ProviderError('provider answer is not a JSON object');
  return body as Record<string, unknown>;
}

function profileFrom(body: Record<string, unknown>): ProviderProfile {
  const rawSubject = body.sub ?? body.id;
  const subject = typeof rawSubject === 'string' || typeof rawSubject === 'number' ? String(rawSubject) : '';
  if (!subject || subject.length > 255) throw new ProviderError('userinfo has no subject');
  const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
  const name = typeof body.name === 'string' ? body.name.trim().slice(0, 128) : '';
  return {
    subject,
    email: email && validateEmail(email).isValid && email.length <= 254 ? email : null,
    isEmailVerified: body.email_verified === true,
    name: name || null,
  };
}

async function fetchProfile(
  c: Context<AppEnv>,
  fetchInternal: Fetch,
  provider: SocialProvider,
  code: string,
  codeVerifier: string,
  callbackUri: string,
): Promise<ProviderProfile> {
  const secret = clientSecretOf(c.get('site'), provider, c.get('services').siteSecrets);
  if (!secret) throw new ProviderError(`no client secret is set for ${provider.service}`);
  const tokenAnswer = await readJson(
    await callProvider(c, fetchInternal, provider.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: callbackUri,
        client_id: provider.clientId,
        client_secret: secret,
        code_verifier: codeVerifier,
      }),
    }),
  );
  const accessToken = tokenAnswer.access_token;
  if (typeof accessToken !== 'string' || !accessToken) throw new ProviderError('token answer has no access_token');
  if (typeof tokenAnswer.token_type === 'string' && tokenAnswer.token_type.toLowerCase() !== 'bearer')
    throw new ProviderError('token is not a bearer token');
  return profileFrom(
    await readJson(
      await callProvider(c, fetchInternal, provider.userinfoUrl, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      }),
    ),
  );
}

export function createOauthRoutes(options: { fetchInternal: () => Fetch; logger: Logger }) {
  const routes = new Hono<AppEnv>();
  routes.use('*', async (c, next) => {
    await next();
    // Every answer here is about one person's sign-in: never stored by any cache.
    c.header('Cache-Control', 'no-store');
  });
  routes.use(
    '*',
    bodyLimit({
      maxSize: 16 * 1024,
      onError: (c) => c.json({ error: 'invalid_request', error_description: 'request too large' }, 413),
    }),
  );

  routes.get('/init', async (c) => {
    const site = c.get('site');
    const services = c.get('services');
    const identity = c.get('identity');
    if (site.isMaintenance) return failure(c, 'unavailable', 503);
    const typeAuth = c.req.query('type_auth') ?? 'login';
    if (typeAuth !== 'login' && typeAuth !== 'register') return failure(c, 'failed', 400);
    const provider = (await providersOf(c)).get(c.req.query('service') ?? '');
    if (!provider) return failure(c, 'unavailable', 404);
    try {
      await services.rateLimits.consume({ key: `oauth:init:ip:${identity.ip}`, ...INIT_LIMIT });
    } catch (error) {
      if (error instanceof ApiError && error.type === 'TooManyRequestsException') return failure(c, 'tooMany', 429);
      throw error;
    }
    const locale = popupLocale(c);
    const origin = siteOrigin(site, c.req.url);
    const callbackUri = `${origin}/oauth/callback/${provider.service}`;
    const { state, codeChallenge } = await services.social.startFlow({
      siteId: site.id,
      service: provider.service,
      typeAuth: typeAuth as TypeAuth,
      // Only a path of this site: anything else (another host, //host, javascript:) becomes home.
      redirectUrl: safeRedirectTarget(c.req.query('redirect_url'), localizePath('/', locale)),
      callbackUri,
      visitorId: identity.visitorId,
      locale,
    });
    const authorize = new URL(provider.authorizeUrl, origin);
    const query = {
      response_type: 'code',
      client_id: provider.clientId,
      redirect_uri: callbackUri,
      scope: provider.scope,
      state,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
    };
    for (const [name, value] of Object.entries(query)) if (value) authorize.searchParams.set(name, value);
    return c.redirect(authorize.toString(), 302);
  });

  routes.get('/callback/:service', async (c) => {
    const site = c.get('site');
    const services = c.get('services');
    const identity = c.get('identity');
    const service = c.req.param('service');
    const flow = await services.social.consumeState({
      state: c.req.query('state') ?? '',
      siteId: site.id,
      service,
      visitorId: identity.visitorId,
    });
    if (!flow) return failure(c, 'expired', 400);
    const providerError = c.req.query('error');
    if (providerError)
      return failure(c, providerError === 'access_denied' ? 'denied' : 'failed', providerError === 'access_denied' ? 403 : 400);
    const provider = (await providersOf(c)).get(service);
    if (!provider) return failure(c, 'unavailable', 404);
    const code = c.req.query('code') ?? '';
    if (!code || code.length > 2048) return failure(c, 'failed', 400);

    let profile: ProviderProfile;
    try {
      profile = await fetchProfile(c, options.fetchInternal(), provider, code, flow.codeVerifier, flow.callbackUri);
    } catch (error) {
      options.logger.warn({ err: error, service, reqId: c.get('requestId') }, 'social sign-in: provider exchange failed');
      return failure(c, 'failed', 502);
    }

    const locale = isLocale(flow.locale) ? flow.locale : DEFAULT_LOCALE;
    const { user, isNew } = await services.social.findOrCreatePlayer({
      siteId: site.id,
      provider: service,
      subject: profile.subject,
      email: profile.email,
      isEmailVerified: profile.isEmailVerified,
      displayName: profile.name,
      currency: site.defaultCurrency,
      locale,
      // The player still accepts the terms and picks a currency (spec §2: socialRegistration).
      isRegistrationCompleted: false,
    });
    if (isNew) await services.bonuses.grantRegistrationBonus({ siteId: site.id, userId: user.id, currency: user.currency });
    const translations = await services.content.getTranslations(site.id, locale);
    if (services.auth.needsSecondFactor(user)) {
      // The provider vouched for the player; the site still asks for the code (auth.confirmSecondFactor).
      const ticket = await services.oneTimeSecrets.issueSecondFactorTicket(user.id, identity.visitorId);
      return c.html(
        socialResultPage({
          locale,
          translations,
          result: { status: 'two_factor', redirectUrl: storedTarget(flow.redirectUrl, locale), ticket },
          nonce: c.get('cspNonce'),
        }),
      );
    }
    let token: string;
    try {
      token = await services.auth.signInVerified(user, identity);
    } catch (error) {
      if (error instanceof ApiError) return failure(c, 'blocked', 403);
      throw error;
    }
    // Rotate: the session this browser had before ends now.
    if (identity.sessionTokenHash) await services.auth.revokeSession(identity.sessionTokenHash);
    writeSessionCookie(c, token);
    return c.html(
      socialResultPage({
        locale,
        translations,
        result: { status: 'success', redirectUrl: storedTarget(flow.redirectUrl, locale), isNew, typeAuth: flow.typeAuth },
        nonce: c.get('cspNonce'),
      }),
    );
  });

  routes.route('/dev', createDevIdentityProviderRoutes());
  return routes;
}
