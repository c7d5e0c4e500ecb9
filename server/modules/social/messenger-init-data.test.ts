import { describe, expect, it } from 'vitest';
import { checkInitData, dataCheckString, INIT_DATA_MAX_AGE_MS } from './messenger-init-data';

// A vector signed outside this code base (Python's hmac, with the messenger's published steps),
// so the check is compared with the algorithm, not with itself.
const BOT_TOKEN = '123456789:TEST-token-for-unit-tests';
const SIGNED =
  'query_id=AAHdF6IQAAAAAN0XohDhrOrc&user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vlad%22%2C%22last_name%22%3A%22%22%2C%22username%22%3A%22vdkfrost%22%2C%22language_code%22%3A%22it%22%2C%22is_premium%22%3Atrue%2C%22allows_write_to_pm%22%3Atrue%7D&auth_date=1716911000&start_param=promo_WELCOME&hash=0ee6f101879db205f6c3882b34a2da7870344afb9bdda0810d00aff8ba41e045';
const AUTH_DATE_MS = 1716911000 * 1000;
const SOON_AFTER = AUTH_DATE_MS + 60_000;

function withField(raw: string, name: string, value: string): string {
  const params = new URLSearchParams(raw);
  params.set(name, value);
  return params.toString();
}

describe("messenger init data signature (spec §3 messenger registration; the messenger's published HMAC check)", () => {
  it('accepts the signed vector and reads the registration fields id, username, hash, language_code and payload', () => {
    const check = checkInitData(SIGNED, BOT_TOKEN, SOON_AFTER);
    expect(check).toEqual({
      isValid: true,
      registration: {
        is_tg: true,
        id: '279058397',
        username: 'vdkfrost',
        hash: '0ee6f101879db205f6c3882b34a2da7870344afb9bdda0810d00aff8ba41e045',
        language_code: 'it',
        payload: 'promo_WELCOME',
        authDateS: 1716911000,
        firstName: 'Vlad',
        lastName: '',
      },
    });
  });

  it('builds the data-check string from every field but hash, sorted by key, joined by newlines', () => {
    expect(
      dataCheckString([
        ['user', '{}'],
        ['hash', 'x'],
        ['auth_date', '1'],
        ['query_id', 'q'],
      ]),
    ).toBe('auth_date=1\nquery_id=q\nuser={}');
  });

  it('does not depend on the order of the fields as sent', () => {
    const reordered = [...new URLSearchParams(SIGNED).entries()].reverse();
    expect(checkInitData(new URLSearchParams(reordered).toString(), BOT_TOKEN, SOON_AFTER).isValid).toBe(true);
  });

  it('refuses a changed field (a tampered user id, payload or date)', () => {
    const user = new URLSearchParams(SIGNED).get('user') ?? '';
    expect(checkInitData(withField(SIGNED, 'user', user.replace('279058397', '279058398')), BOT_TOKEN, SOON_AFTER)).toEqual({
      isValid: false,
      reason: 'signature',
    });
    expect(checkInitData(withField(SIGNED, 'start_param', 'promo_VIP'), BOT_TOKEN, SOON_AFTER)).toEqual({
      isValid: false,
      reason: 'signature',
    });
    expect(checkInitData(withField(SIGNED, 'auth_date', '1716911001'), BOT_TOKEN, SOON_AFTER)).toEqual({
      isValid: false,
      reason: 'signature',
    });
  });

  it('refuses an added field, since every field is signed', () => {
    expect(checkInitData(`${SIGNED}&chat_type=private`, BOT_TOKEN, SOON_AFTER)).toEqual({ isValid: false, reason: 'signature' });
  });

  it('refuses data signed for another bot', () => {
    expect(checkInitData(SIGNED, '987654321:another-bot', SOON_AFTER)).toEqual({ isValid: false, reason: 'signature' });
    expect(checkInitData(SIGNED, '', SOON_AFTER)).toEqual({ isValid: false, reason: 'signature' });
  });

  it('refuses an auth_date older than 24 hours, and accepts it just inside', () => {
    expect(checkInitData(SIGNED, BOT_TOKEN, AUTH_DATE_MS + INIT_DATA_MAX_AGE_MS).isValid).toBe(true);
    expect(checkInitData(SIGNED, BOT_TOKEN, AUTH_DATE_MS + INIT_DATA_MAX_AGE_MS + 1000)).toEqual({
      isValid: false,
      reason: 'expired',
    });
  });

  it('refuses an auth_date far in the future', () => {
    expect(checkInitData(SIGNED, BOT_TOKEN, AUTH_DATE_MS - 60 * 60 * 1000)).toEqual({ isValid: false, reason: 'expired' });
  });

  it('refuses a missing or malformed hash and a field given twice', () => {
    const params = new URLSearchParams(SIGNED);
    params.delete('hash');
    expect(checkInitData(params.toString(), BOT_TOKEN, SOON_AFTER)).toEqual({ isValid: false, reason: 'malformed' });
    expect(checkInitData(withField(SIGNED, 'hash', 'zz'), BOT_TOKEN, SOON_AFTER)).toEqual({
      isValid: false,
      reason: 'malformed',
    });
    expect(checkInitData(`${SIGNED}&auth_date=1716911000`, BOT_TOKEN, SOON_AFTER)).toEqual({
      isValid: false,
      reason: 'malformed',
    });
  });

  it('accepts the hash written in capitals (hex is case-insensitive)', () => {
    const hash = new URLSearchParams(SIGNED).get('hash') ?? '';
    expect(checkInitData(withField(SIGNED, 'hash', hash.toUpperCase()), BOT_TOKEN, SOON_AFTER).isValid).toBe(true);
  });
});
