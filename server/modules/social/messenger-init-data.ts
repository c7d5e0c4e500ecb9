/**
 * Messenger mini-app entry (Telegram Web App): the init data the messenger hands the page is a
 * query string signed with the bot's token. The check is the one the messenger publishes:
 *   secret_key       = HMAC-SHA256(key "WebAppData", message bot_token)
 *   data_check_string = every field except hash, sorted by key, as key=value lines joined by \n
 *   hash             = hex HMAC-SHA256(key secret_key, message data_check_string)
 * compared in constant time; an auth_date older than 24 hours is refused.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const INIT_DATA_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** A signed date this far in the future is a wrong clock or a forgery, not a fresh entry. */
const FUTURE_TOLERANCE_MS = 5 * 60 * 1000;

/** The messenger registration fields of spec §3. */
export interface MessengerRegistration {
  is_tg: true;
  id: string;
  username: string;
  hash: string;
  language_code: string;
  /** The mini-app start parameter (start_param), e.g. a referral or promo code. */
  payload: string;
  authDateS: number;
  firstName: string;
  lastName: string;
}

export type InitDataCheck =
  { isValid: true; registration: MessengerRegistration } | { isValid: false; reason: 'malformed' | 'signature' | 'expired' };

export function dataCheckString(fields: ReadonlyArray<readonly [string, string]>): string {
  return fields
    .filter(([key]) => key !== 'hash')
    .map(([key, value]) => `${key}=${value}`)
    .sort((a, b) => {
      const keyA = a.slice(0, a.indexOf('='));
      const keyB = b.slice(0, b.indexOf('='));
      return keyA < keyB ? -1 : keyA > keyB ? 1 : 0;
    })
    .join('\n');
}

function expectedHash(botToken: string, checkString: string): Buffer {
  const secretKey = createHmac('sha256', 'WebAppData').update(botToken).digest();
  return createHmac('sha256', secretKey).update(checkString).digest();
}

interface MessengerUser {
  id?: unknown;
  username?: unknown;
  language_code?: unknown;
  first_name?: unknown;
  last_name?: unknown;
}

function text(value: unknown, maxLength: number): string {
  return typeof value === 'string' ? value.slice(0, maxLength) : '';
}

/** Checks raw init data against the bot token at the given time; parses it when it is genuine. */
export function checkInitData(raw: string, botToken: string, nowMs: number): InitDataCheck {
  const fields = [...new URLSearchParams(raw).entries()];
  const keys = fields.map(([key]) => key);
  // A key given twice would make the signed string ambiguous.
  if (new Set(keys).size !== keys.length) return { isValid: false, reason: 'malformed' };
  const hash = fields.find(([key]) => key === 'hash')?.[1] ?? '';
  if (!/^[0-9a-f]{64}$/i.test(hash)) return { isValid: false, reason: 'malformed' };
  if (!botToken) return { isValid: false, reason: 'signature' };
  const expected = expectedHash(botToken, dataCheckString(fields));
  if (!timingSafeEqual(expected, Buffer.from(hash, 'hex'))) return { isValid: false, reason: 'signature' };

  const authDateS = Number(fields.find(([key]) => key === 'auth_date')?.[1]);
  if (!Number.isSafeInteger(authDateS) || authDateS <= 0) return { isValid: false, reason: 'malformed' };
  const ageMs = nowMs - authDateS * 1000;
  if (ageMs > INIT_DATA_MAX_AGE_MS || ageMs < -FUTURE_TOLERANCE_MS) return { isValid: false, reason: 'expired' };

  let user: MessengerUser;
  try {
    user = JSON.parse(fields.find(([key]) => key === 'user')?.[1] ?? 'null') as MessengerUser;
  } catch {
    return { isValid: false, reason: 'malformed' };
  }
  const id = typeof user?.id === 'number' || typeof user?.id === 'string' ? String(user.id) : '';
  if (!/^[1-9][0-9]{0,19}$/.test(id)) return { isValid: false, reason: 'malformed' };
  return {
    isValid: true,
    registration: {
      is_tg: true,
      id,
      username: text(user.username, 64),
      hash: hash.toLowerCase(),
      language_code: text(user.language_code, 16),
      payload: text(fields.find(([key]) => key === 'start_param')?.[1], 512),
      authDateS,
      firstName: text(user.first_name, 128),
      lastName: text(user.last_name, 128),
    },
  };
}
