/**
 * Signed unsubscribe links (/unsubscribe?u=…&c=…&s=…): anyone holding the link can unsubscribe
 * that contact from news, nobody can forge one for another contact. The signing key is random,
 * made once per installation and kept in the database (never in the repository).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { StorageService } from '../storage';

const SYSTEM_OWNER = 'system';
const KEY_NAME = 'unsubscribe_link_key';

export function signUnsubscribe(key: string, uid: number, contact: string): string {
  return createHmac('sha256', key).update(`${uid}:${contact}`).digest('base64url');
}

export function isUnsubscribeSignatureValid(key: string, uid: number, contact: string, signature: string): boolean {
  const expected = Buffer.from(signUnsubscribe(key, uid, contact));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function unsubscribeKey(storage: StorageService): Promise<string> {
  return storage.getOrCreate(SYSTEM_OWNER, KEY_NAME, () => randomBytes(32).toString('hex'));
}

/** The query of an unsubscribe link: ?u={uid}&c={contact}&s={signature}. */
export function unsubscribeQuery(key: string, uid: number, contact: string): string {
  return new URLSearchParams({ u: String(uid), c: contact, s: signUnsubscribe(key, uid, contact) }).toString();
}
