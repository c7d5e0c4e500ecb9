import { expect, vi } from 'vitest';
import type { CallSharingHold } from '../server/db/call-sharing';

/**
 * Sends requests while a call-sharing queue is held and lets them go once `count` of them wait, so
 * they share calls whatever the machine's speed: on a loaded machine requests sent at once can
 * reach the queue a call apart, and each goes alone (issue 12's shared rounds and provider money).
 */
export async function sideBySide<T>(hold: CallSharingHold | undefined, count: number, send: () => Promise<T>[]): Promise<T[]> {
  if (!hold) throw new Error('these services share no calls');
  const answers = Promise.all(send());
  try {
    await vi.waitFor(() => expect(hold.waiting()).toBe(count), { timeout: 10_000 });
  } finally {
    hold.release();
  }
  return answers;
}
