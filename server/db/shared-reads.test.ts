/**
 * Shared reads (issue 12; shared-reads.ts): who shares a read, and that nobody gets a read that
 * started before they asked. The read is a hand-driven stand-in, so every interleaving is chosen;
 * the database side is shared-balances.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createSharedReads } from './shared-reads';

/** A read whose calls stay open until the test answers them; each key is answered with `key@call`. */
function handDriven() {
  const calls: { keys: string[]; answer: (error?: Error) => void; answerWithout: (key: string) => void }[] = [];
  const readAll = (keys: readonly string[]) =>
    new Promise<Map<string, string>>((resolve, reject) => {
      const index = calls.length;
      const values = (skip?: string) => new Map(keys.filter((key) => key !== skip).map((key) => [key, `${key}@${index}`]));
      calls.push({
        keys: [...keys],
        answer: (error) => (error ? reject(error) : resolve(values())),
        answerWithout: (key) => resolve(values(key)),
      });
    });
  return { calls, readAll };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('shared reads (issue 12: requests that ask together share one read, none gets a read older than its asking)', () => {
  it('a lone request reads at once, alone', async () => {
    const { calls, readAll } = handDriven();
    const reads = createSharedReads(readAll, { lanes: 1 });
    const value = reads.read('a');
    expect(calls.map((call) => call.keys)).toEqual([['a']]);
    calls[0]!.answer();
    await expect(value).resolves.toBe('a@0');
  });

  it('requests that ask while a read is in flight wait for the next read, which asks for each key once and answers each request with its key', async () => {
    const { calls, readAll } = handDriven();
    const reads = createSharedReads(readAll, { lanes: 1 });
    const first = reads.read('a');
    const later = [reads.read('a'), reads.read('b'), reads.read('a')];
    expect(calls).toHaveLength(1);
    calls[0]!.answer();
    await expect(first).resolves.toBe('a@0');
    await settled();
    expect(calls.map((call) => call.keys)).toEqual([['a'], ['a', 'b']]);
    calls[1]!.answer();
    // The requests that asked while read 0 was in flight got read 1, never read 0.
    expect(await Promise.all(later)).toEqual(['a@1', 'b@1', 'a@1']);
    expect(reads.stats()).toEqual({ reads: 2, requests: 4 });
  });

  it('with two lanes a second read starts while the first is in flight; a third waits', async () => {
    const { calls, readAll } = handDriven();
    const reads = createSharedReads(readAll, { lanes: 2 });
    const values = [reads.read('a'), reads.read('a'), reads.read('b')];
    expect(calls.map((call) => call.keys)).toEqual([['a'], ['a']]);
    calls[1]!.answer();
    await settled();
    expect(calls.map((call) => call.keys)).toEqual([['a'], ['a'], ['b']]);
    calls[0]!.answer();
    calls[2]!.answer();
    expect(await Promise.all(values)).toEqual(['a@0', 'a@1', 'b@2']);
  });

  it('a failed read fails every request it carried, and the next request reads again', async () => {
    const { calls, readAll } = handDriven();
    const reads = createSharedReads(readAll, { lanes: 1 });
    const first = reads.read('a');
    const carried = [reads.read('a'), reads.read('b')];
    calls[0]!.answer();
    await first;
    await settled();
    calls[1]!.answer(new Error('connection lost'));
    for (const value of carried) await expect(value).rejects.toThrow('connection lost');
    const again = reads.read('a');
    calls[2]!.answer();
    await expect(again).resolves.toBe('a@2');
  });

  it('a key the read did not answer fails its requests, never answers them with undefined', async () => {
    const { calls, readAll } = handDriven();
    const reads = createSharedReads(readAll, { lanes: 1 });
    const first = reads.read('a');
    calls[0]!.answerWithout('a');
    await expect(first).rejects.toThrow('no value');
  });
});
