/** Calling the API as one browser would: a cookie jar that follows the session cookie. */
import type { TestApp } from './api-harness';
import { hashPassword } from '../server/modules/auth';

export interface ApiAnswer {
  status: number;
  json: { data?: unknown; error?: { type: string; message: string; error_data?: Record<string, unknown> } };
  /** The raw Set-Cookie of the session cookie, when the answer set or cleared it. */
  sid?: string;
}

export class Browser {
  cookie = '';
  constructor(
    private readonly app: TestApp,
    private readonly locale = 'en',
  ) {}

  async call(name: string, params: Record<string, string> = {}, method: 'GET' | 'POST' = 'POST'): Promise<ApiAnswer> {
    const query = new URLSearchParams({ v: '2.34', locale: this.locale, ...(method === 'GET' ? params : {}) });
    const response = await this.app.request(`/api/${name}?${query}`, {
      method,
      body: method === 'POST' ? new URLSearchParams(params) : undefined,
      headers: this.cookie ? { cookie: this.cookie } : {},
    });
    const sid = response.headers.getSetCookie().find((cookie) => cookie.startsWith('sid='));
    if (sid) this.cookie = sid.split(';')[0] ?? '';
    return { status: response.status, json: (await response.json()) as ApiAnswer['json'], sid };
  }

  data<T>(answer: ApiAnswer): T {
    if (answer.json.error) throw new Error(`${answer.json.error.type}: ${answer.json.error.message}`);
    return answer.json.data as T;
  }
}

let sequence = 0;
export function uniqueEmail(): string {
  return `player${Date.now()}${sequence++}@example.com`;
}

/** A browser signed in as a freshly registered player. */
export async function registeredPlayer(
  app: TestApp,
  password = 'secret12',
): Promise<{ browser: Browser; login: string; uid: number; password: string }> {
  const browser = new Browser(app);
  const login = uniqueEmail();
  const info = browser.data<{ uid: number }>(await browser.call('auth.register', { login, password, terms: '1' }));
  return { browser, login, uid: info.uid, password };
}

/**
 * A browser signed in as a player created straight in the database (real password hash, real
 * sign-in): for suites that need more players than the sign-up rate limit lets one address make.
 */
export async function signedInPlayer(
  app: TestApp,
  password = 'secret12',
): Promise<{ browser: Browser; login: string; uid: number; password: string }> {
  const site = await app.services.sites.resolveSite('127.0.0.1');
  const login = uniqueEmail();
  const user = await app.services.accounts.createUser({
    siteId: site.id,
    login,
    passwordHash: await hashPassword(password),
    currency: site.defaultCurrency,
    locale: 'en',
    isSubscribed: false,
  });
  if (!user) throw new Error('could not create the player');
  const browser = new Browser(app);
  browser.data(await browser.call('auth.login', { login, password }));
  return { browser, login, uid: user.id, password };
}

/** The newest outbox message to a recipient. */
export async function lastMessageTo(app: TestApp, recipient: string) {
  const messages = await app.services.messaging.latest(200);
  return messages.find((message) => message.recipient === recipient);
}
