/**
 * A player of any site, signed in through that site's host, with a cookie jar, plus funding
 * straight through the ledger: for suites that need players of several sites (jurisdiction
 * settings, a site with game history export turned off).
 */
import { amountToMinor, minorToAmount } from '../common/money';
import { API_VERSION } from '../common/api-contract';
import { hashPassword } from '../server/modules/auth';
import { house, move, player } from '../server/modules/wallet';
import type { TestApp } from './api-harness';
import { uniqueEmail, type ApiAnswer } from './player';

let sequence = 0;

export class HostBrowser {
  cookie = '';
  constructor(
    private readonly app: TestApp,
    readonly host: string,
    private readonly locale = 'en',
  ) {}

  async call(name: string, params: Record<string, string> = {}, method: 'GET' | 'POST' = 'POST'): Promise<ApiAnswer> {
    const query = new URLSearchParams({ v: API_VERSION, locale: this.locale, ...(method === 'GET' ? params : {}) });
    const response = await this.fetch(`/api/${name}?${query}`, {
      method,
      body: method === 'POST' ? new URLSearchParams(params) : undefined,
    });
    const sid = response.headers.getSetCookie().find((cookie) => cookie.startsWith('sid='));
    if (sid) this.cookie = sid.split(';')[0] ?? '';
    return { status: response.status, json: (await response.json()) as ApiAnswer['json'], sid };
  }

  /** Any request on this site, with the session cookie. */
  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set('cookie', this.cookie);
    return this.app.request(path, { ...init, headers, host: this.host });
  }

  data<T>(answer: ApiAnswer): T {
    if (answer.json.error) throw new Error(`${answer.json.error.type}: ${answer.json.error.message}`);
    return answer.json.data as T;
  }
}

/** A fresh player of the site `host` serves, signed in there. */
export async function hostPlayer(
  app: TestApp,
  host: string,
  password = 'secret12',
): Promise<{ browser: HostBrowser; uid: number; siteId: string; currency: string }> {
  const site = await app.services.sites.resolveSite(host);
  const user = await app.services.accounts.createUser({
    siteId: site.id,
    login: uniqueEmail(),
    passwordHash: await hashPassword(password),
    currency: site.defaultCurrency,
    locale: 'en',
    isSubscribed: false,
  });
  if (!user) throw new Error('could not create the player');
  const browser = new HostBrowser(app, host);
  browser.data(await browser.call('auth.login', { login: user.login, password }));
  return { browser, uid: user.id, siteId: site.id, currency: site.defaultCurrency };
}

/** Credits a player's main balance as a settled deposit would. */
export async function fundPlayer(
  app: Pick<TestApp, 'services'>,
  who: { uid: number; siteId: string; currency: string },
  amount: string,
): Promise<void> {
  const amountMinor = amountToMinor(amount);
  await app.services.wallet.transfer({
    siteId: who.siteId,
    userId: who.uid,
    kind: 'deposit',
    currency: who.currency,
    amountMinor,
    legs: move(house('psp_clearing'), player(who.uid, 'main'), amountMinor),
    idempotencyKey: `test-fund:${who.uid}:${Date.now()}:${sequence++}`,
    actor: 'system',
    reason: 'test funding',
  });
}

/**
 * A player made straight through the services and funded by fundPlayer: for tests of what a provider
 * or the aggregator does with a balance, where signing up over HTTP is beside the point.
 */
export async function fundedUser(
  t: Pick<TestApp, 'services'>,
  options: { siteId: string; currency: string; amountMinor: bigint; tag: string },
): Promise<{ id: number }> {
  const { siteId, currency, amountMinor, tag } = options;
  const user = await t.services.accounts.createUser({
    siteId,
    login: `${tag}-${Date.now()}@example.com`,
    passwordHash: 'not-used',
    currency,
    locale: 'en',
    isSubscribed: false,
  });
  if (!user) throw new Error(`no user for ${tag}`);
  await fundPlayer(t, { uid: user.id, siteId, currency }, minorToAmount(amountMinor));
  return { id: user.id };
}
