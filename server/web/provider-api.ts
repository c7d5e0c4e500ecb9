/**
 * `POST /provider-api/{provider}/{action}`: the seamless wallet external game providers call
 * (docs/provider-wallet.md). The site is the one the Host names; the provider signs the raw
 * body with its secret (X-Signature, hex HMAC-SHA256), checked in constant time before anything
 * is parsed. Answers are in the provider's envelope, never the product API's: bad input gets
 * INVALID_REQUEST with HTTP 400, a wrong signature INVALID_SIGNATURE with 401, our own failure
 * INTERNAL_ERROR with 500 (nothing recorded: the provider sends the request again).
 */
import { Hono, type Context } from 'hono';
import type { Logger } from 'pino';
import { isDemoSite } from '../modules/sites';
import type { AppEnv } from './app-env';
import { jsonAnswer } from './answer-headers';
import { readBodyText, RequestBodyTooLarge } from './request-body';
import { requestHeader } from './request-headers';
import {
  amountJson,
  PROVIDER_ACTIONS,
  PROVIDER_ERROR_STATUS,
  ProviderRefusal,
  requestSchemas,
  type ProviderAction,
  type ProviderErrorAnswer,
  type ProviderErrorCode,
  isSignatureValid,
  SIGNATURE_HEADER,
} from '../modules/provider-wallet';

/** Wallet requests are small; anything larger is not one. */
const MAX_PROVIDER_BODY_BYTES = 16 * 1024;
const ACTIONS: ReadonlySet<string> = new Set(PROVIDER_ACTIONS);

function errorAnswer(c: Context<AppEnv>, code: ProviderErrorCode, message: string, extra: Partial<ProviderErrorAnswer> = {}) {
  const body: ProviderErrorAnswer = { status: 'ERROR', code, message, ...extra };
  return jsonAnswer(c, body, PROVIDER_ERROR_STATUS[code]);
}

/** The raw body the signature covers, or undefined when it is longer than any wallet request. */
async function readLimitedBody(c: Context<AppEnv>): Promise<string | undefined> {
  try {
    return await readBodyText(c, MAX_PROVIDER_BODY_BYTES);
  } catch (error) {
    if (error instanceof RequestBodyTooLarge) return undefined;
    throw error;
  }
}

export function createProviderApiRoutes(logger?: Pick<Logger, 'error'>) {
  const routes = new Hono<AppEnv>();

  routes.post('/:provider/:action', async (c) => {
    const wallet = c.get('services').providerWallet;
    const providerName = c.req.param('provider');
    const action = c.req.param('action');
    const rawBody = await readLimitedBody(c);
    if (rawBody === undefined) return errorAnswer(c, 'INVALID_REQUEST', 'The request body is too large');
    const config = wallet.providerFor(providerName);
    // The demo provider's key is published: it speaks for demo sites only. A real provider pays
    // real wins, so it never plays on a demo site, whose balances come from the sandboxes.
    if (!config || Boolean(config.isDemo) !== isDemoSite(c.get('site')))
      return errorAnswer(c, 'UNKNOWN_PROVIDER', 'Unknown provider');
    // The signature first: nothing of an unsigned body is read, looked up or answered.
    if (!isSignatureValid(config.secret, rawBody, requestHeader(c, SIGNATURE_HEADER)))
      return errorAnswer(c, 'INVALID_SIGNATURE', 'Missing or wrong X-Signature');
    if (!ACTIONS.has(action)) return errorAnswer(c, 'UNKNOWN_ACTION', 'Unknown action');

    let json: unknown;
    try {
      json = JSON.parse(rawBody);
    } catch {
      return errorAnswer(c, 'INVALID_REQUEST', 'The body is not JSON');
    }
    const parsed = requestSchemas[action as ProviderAction].safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join('.') || undefined;
      return errorAnswer(
        c,
        'INVALID_REQUEST',
        field ? `Invalid field: ${field}` : 'The body must be a JSON object',
        field ? { field } : {},
      );
    }

    const siteId = c.get('site').id;
    try {
      const request = parsed.data as never;
      switch (action as ProviderAction) {
        case 'authenticate':
          return jsonAnswer(c, await wallet.authenticate(providerName, siteId, request), 200);
        case 'balance':
          return jsonAnswer(c, await wallet.balance(providerName, siteId, request), 200);
        case 'bet':
          return jsonAnswer(c, await wallet.bet(providerName, siteId, request), 200);
        case 'win':
          return jsonAnswer(c, await wallet.win(providerName, siteId, request), 200);
        case 'rollback':
          return jsonAnswer(c, await wallet.rollback(providerName, siteId, request), 200);
        case 'round-end':
          return jsonAnswer(c, await wallet.roundEnd(providerName, siteId, request), 200);
      }
    } catch (error) {
      if (error instanceof ProviderRefusal) {
        const { balanceOf, field } = error.extra;
        const balance = balanceOf
          ? {
              balance: amountJson(await wallet.balanceMinor(balanceOf.siteId, balanceOf.userId, balanceOf.currency)),
              currency: balanceOf.currency,
            }
          : {};
        return errorAnswer(c, error.code, error.message, { ...(field ? { field } : {}), ...balance });
      }
      logger?.error({ err: error, provider: providerName, action }, 'provider wallet request failed');
      return errorAnswer(c, 'INTERNAL_ERROR', 'The request could not be applied; send it again');
    }
  });

  routes.all('*', (c) =>
    errorAnswer(c, 'UNKNOWN_ACTION', 'Unknown action; the wallet takes POST /provider-api/{provider}/{action}'),
  );
  return routes;
}
