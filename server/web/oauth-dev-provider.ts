/**
 * The built-in development identity provider, so social sign-in works end to end with no
 * outside host: an authorize page where a person types an e-mail and a name and allows or
 * denies, a token endpoint (client id and secret, redirect_uri and the PKCE verifier checked,
 * code single use) and a userinfo endpoint behind a bearer token. It serves a site only when the
 * site is marked demo and its auth configuration lists a provider of type "dev" (issue 11).
 */
import { Hono, type Context } from 'hono';
import { validateEmail } from '#common/validators';
import { DEFAULT_LOCALE } from '#common/locale';
import { isDemoSite } from '../modules/sites';
import type { AppEnv } from './app-env';
import { escapeXml } from './brand';
import { isSameOriginRequest } from './same-origin';
import { siteOrigin } from './site-origin';
import {
  clientSecretOf,
  siteSocialProviders,
  type SocialProvider,
  isCodeVerifier,
  pkceChallenge,
  safeEqual,
  DEV_ACCESS_TOKEN_TTL_MS,
  devSubject,
} from '../modules/social';

interface AuthorizeRequest {
  provider: SocialProvider;
  clientId: string;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  scope: string;
}

const AUTHORIZE_FIELDS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

async function devProviderFor(c: Context<AppEnv>, clientId: string): Promise<SocialProvider | undefined> {
  const site = c.get('site');
  const config = await c.get('services').content.getConfig(site.id, site.locales[0] ?? DEFAULT_LOCALE);
  return [...siteSocialProviders(site, config['auth-config']).values()].find(
    (provider) => provider.type === 'dev' && safeEqual(provider.clientId, clientId),
  );
}

/**
 * Checks an authorization request. Client and redirect_uri come first: until both are known
 * good, nothing may be sent to redirect_uri (RFC 6749 §4.1.2.1), so errors show on our page.
 */
async function readAuthorizeRequest(c: Context<AppEnv>, params: Record<string, string>): Promise<AuthorizeRequest | string> {
  const provider = await devProviderFor(c, params.client_id ?? '');
  if (!provider) return 'Unknown client_id.';
  const expectedRedirect = `${siteOrigin(c.get('site'), c.req.url)}/oauth/callback/${provider.service}`;
  if (params.redirect_uri !== expectedRedirect) return 'redirect_uri is not registered for this client.';
  if (params.response_type !== 'code') return 'Only response_type=code is supported.';
  if (params.code_challenge_method !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(params.code_challenge ?? ''))
    return 'A PKCE code_challenge with method S256 is required.';
  if (!params.state || params.state.length > 512) return 'state is required.';
  return {
    provider,
    clientId: provider.clientId,
    redirectUri: expectedRedirect,
    state: params.state,
    codeChallenge: params.code_challenge ?? '',
    scope: params.scope ?? '',
  };
}

/** A provider page; its style element carries the answer's CSP nonce. */
function page(nonce: string, title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><meta name="referrer" content="same-origin"><title>${escapeXml(title)}</title><style nonce="${nonce}">body{font-family:system-ui,sans-serif;background:#eef1f7;color:#1d2433;margin:0;padding:1rem}main{max-width:420px;margin:0 auto;background:#fff;border-radius:14px;padding:1.25rem;box-shadow:0 6px 24px #0001}h1{font-size:1.2rem;margin:0 0 .25rem}label{display:grid;gap:.3rem;margin:.7rem 0;font-size:.9rem}input{height:38px;border:1px solid #cfd6e4;border-radius:8px;padding:0 .6rem;font:inherit}.row{display:flex;flex-direction:row-reverse;gap:.5rem;margin-top:1rem}button{flex:1;height:42px;border:0;border-radius:999px;font:inherit;font-weight:700;cursor:pointer}.allow{background:#2563eb;color:#fff}.deny{background:#e5e7eb;color:#111}small{color:#667085}.error{color:#b91c1c}</style></head><body><main>${body}</main></body></html>`;
}

function authorizeForm(
  nonce: string,
  request: AuthorizeRequest,
  values: { email?: string; name?: string },
  error?: string,
): string {
  const hidden = {
    response_type: 'code',
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    scope: request.scope,
    state: request.state,
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
  };
  const inputs = Object.entries(hidden)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeXml(value)}">`)
    .join('');
  return page(
    nonce,
    'Dev ID: sign in',
    `<h1>Dev ID</h1><p><small>Development identity provider · any e-mail works · nothing leaves this server</small></p>
<form method="post" action="/oauth/dev/authorize">${inputs}
<label>E-mail<input name="email" type="email" autocomplete="email" required value="${escapeXml(values.email ?? '')}"></label>
<label>Name<input name="name" autocomplete="name" maxlength="100" value="${escapeXml(values.name ?? '')}"></label>
${error ? `<p class="error" role="alert">${escapeXml(error)}</p>` : ''}
<p><small>${escapeXml(request.provider.name)} asks for: ${escapeXml(request.scope || 'your identity')}</small></p>
<div class="row"><button class="allow" name="decision" value="allow">Allow</button><button class="deny" name="decision" value="deny" formnovalidate>Deny</button></div>
</form>`,
  );
}

function redirectBack(c: Context<AppEnv>, request: AuthorizeRequest, params: Record<string, string>) {
  const target = new URL(request.redirectUri);
  for (const [name, value] of Object.entries({ ...params, state: request.state })) target.searchParams.set(name, value);
  return c.redirect(target.toString(), 303);
}

function tokenError(c: Context<AppEnv>, error: string, description: string, status: 400 | 401 = 400) {
  if (status === 401) c.header('WWW-Authenticate', 'Basic realm="dev"');
  return c.json({ error, error_description: description }, status);
}

/** client_secret_post, or HTTP Basic (RFC 6749 §2.3.1). */
function clientCredentials(c: Context<AppEnv>, form: Record<string, string>): { clientId: string; clientSecret: string } {
  const basic = /^Basic\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    try {
      if (colon > 0)
        return {
          clientId: decodeURIComponent(decoded.slice(0, colon)),
          clientSecret: decodeURIComponent(decoded.slice(colon + 1)),
        };
    } catch {
      return { clientId: '', clientSecret: '' };
    }
  }
  return { clientId: form.client_id ?? '', clientSecret: form.client_secret ?? '' };
}

async function formOf(c: Context<AppEnv>): Promise<Record<string, string>> {
  const body = await c.req.parseBody().catch(() => ({}));
  return Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

export function createDevIdentityProviderRoutes() {
  const routes = new Hono<AppEnv>();
  // A development provider on a real site would let anyone be anyone: it exists on demo sites only.
  routes.use('*', async (c, next) => {
    if (!isDemoSite(c.get('site'))) return c.json({ error: 'not_found', error_description: 'No such provider' }, 404);
    await next();
  });

  routes.get('/authorize', async (c) => {
    const params = Object.fromEntries(AUTHORIZE_FIELDS.map((name) => [name, c.req.query(name) ?? '']));
    const request = await readAuthorizeRequest(c, params);
    if (typeof request === 'string')
      return c.html(
        page(c.get('cspNonce'), 'Dev ID', `<h1>Dev ID</h1><p class="error" role="alert">${escapeXml(request)}</p>`),
        400,
      );
    return c.html(authorizeForm(c.get('cspNonce'), request, {}));
  });

  routes.post('/authorize', async (c) => {
    if (!isSameOriginRequest(c.req.raw)) return c.text('Cross-site request refused', 403);
    const form = await formOf(c);
    const request = await readAuthorizeRequest(c, form);
    if (typeof request === 'string')
      return c.html(
        page(c.get('cspNonce'), 'Dev ID', `<h1>Dev ID</h1><p class="error" role="alert">${escapeXml(request)}</p>`),
        400,
      );
    if (form.decision !== 'allow')
      return redirectBack(c, request, { error: 'access_denied', error_description: 'The person denied access' });
    const email = (form.email ?? '').trim().toLowerCase();
    const name = (form.name ?? '').trim().slice(0, 100);
    if (!validateEmail(email).isValid || email.length > 254)
      return c.html(authorizeForm(c.get('cspNonce'), request, { email, name }, 'Type a valid e-mail address.'), 400);
    const code = await c.get('services').social.devProvider.issueCode(c.get('site').id, {
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      subject: devSubject(email),
      email,
      name: name || email.split('@')[0] || email,
    });
    return redirectBack(c, request, { code });
  });

  routes.post('/token', async (c) => {
    const form = await formOf(c);
    if (form.grant_type !== 'authorization_code')
      return tokenError(c, 'unsupported_grant_type', 'Only authorization_code is supported');
    const { clientId, clientSecret } = clientCredentials(c, form);
    const provider = await devProviderFor(c, clientId);
    const expectedSecret = provider ? clientSecretOf(c.get('site'), provider, c.get('services').siteSecrets) : undefined;
    if (!provider || !expectedSecret || !safeEqual(clientSecret, expectedSecret))
      return tokenError(c, 'invalid_client', 'Client authentication failed', 401);
    const code = form.code ?? '';
    const verifier = form.code_verifier ?? '';
    if (!code || code.length > 256 || !isCodeVerifier(verifier))
      return tokenError(c, 'invalid_request', 'code and a code_verifier of 43 to 128 characters are required');
    const siteId = c.get('site').id;
    const store = c.get('services').social.devProvider;
    // The code is used up now, whatever follows: a wrong verifier does not get a second try.
    const grant = await store.redeemCode(siteId, code);
    if (!grant) return tokenError(c, 'invalid_grant', 'The code is unknown, expired or already used');
    if (!safeEqual(grant.clientId, provider.clientId))
      return tokenError(c, 'invalid_grant', 'The code was issued to another client');
    if (grant.redirectUri !== form.redirect_uri)
      return tokenError(c, 'invalid_grant', 'redirect_uri does not match the authorization request');
    if (!safeEqual(pkceChallenge(verifier), grant.codeChallenge))
      return tokenError(c, 'invalid_grant', 'PKCE verification failed');
    const accessToken = await store.issueAccessToken(siteId, code);
    return c.json({
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: DEV_ACCESS_TOKEN_TTL_MS / 1000,
      scope: 'openid email profile',
    });
  });

  routes.get('/userinfo', async (c) => {
    const token = /^Bearer\s+([A-Za-z0-9_-]{20,256})$/i.exec(c.req.header('authorization') ?? '')?.[1];
    const grant = token ? await c.get('services').social.devProvider.findByAccessToken(c.get('site').id, token) : undefined;
    if (!grant) {
      c.header('WWW-Authenticate', 'Bearer error="invalid_token"');
      return c.json({ error: 'invalid_token' }, 401);
    }
    return c.json({ sub: grant.subject, email: grant.email, email_verified: false, name: grant.name });
  });

  return routes;
}
