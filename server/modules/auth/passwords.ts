/**
 * Password hashing with argon2id at the architecture's cost (19 MiB, 2 iterations, parallelism 1),
 * with a bound on concurrent hashes so a burst of sign-ins cannot exhaust memory.
 */
import { hash, verify } from '@node-rs/argon2';

const ARGON2ID = 2; // Algorithm.Argon2id (a const enum, not importable with isolated modules)
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;
const MAX_CONCURRENT_HASHES = 4;

let running = 0;
const waiting: (() => void)[] = [];

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_HASHES) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export function hashPassword(password: string): Promise<string> {
  return withHashSlot(() => hash(password, OPTIONS));
}

/**
 * Verifies a password. With no stored hash (unknown login) a dummy hash is checked anyway, so a
 * wrong password and an unknown login take the same time and give the same answer.
 */
let dummyHash: Promise<string> | undefined;
export async function verifyPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  const target = storedHash ?? (await (dummyHash ??= hashPassword('dummy-password-for-timing')));
  const isMatch = await withHashSlot(() => verify(target, password).catch(() => false));
  return Boolean(storedHash) && isMatch;
}
