/**
 * Group commit's queue (issue 12; transfer-groups.ts): who goes out when, with whom, and who
 * learns what. The database side (each group all or nothing inside one call) is tested on both
 * databases in wallet.test.ts; here the call is a hand-driven stand-in so every interleaving is
 * chosen, not hoped for.
 */
import { describe, expect, it } from 'vitest';
import { createTransferGroups, type WriteGroups } from './transfer-groups';
import type { CallOutcome, GroupOutcome, PlannedTransfer } from './transfer-sql';

/** A planned transfer recognisable by its key, on the accounts given; nothing else of it matters to the queue. */
const transfer = (key: string, accountIds: number[] = []) =>
  ({ idempotencyKey: key, postings: accountIds.map((accountId) => ({ accountId, amountMinor: 0n })) }) as PlannedTransfer;
const ok = (id: number): GroupOutcome => ({ status: 'ok', transfers: [{ id, isReplay: false }], accounts: [] });

/** A write whose calls stay open until the test answers them. */
function handDriven() {
  const calls: { keys: string[][]; answer: (outcome: CallOutcome | Error) => void }[] = [];
  const write: WriteGroups = (groups) =>
    new Promise((resolve, reject) => {
      calls.push({
        keys: groups.map((group) => group.map((planned) => planned.idempotencyKey ?? '')),
        answer: (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome)),
      });
    });
  return { calls, write };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

/** On one lane: 'a' alone, answered; 'b' and 'c', which waited behind it, now out together in the second call. */
async function twoWaitingBehindOne() {
  const { calls, write } = handDriven();
  const groups = createTransferGroups(write, { lanes: 1, maxTransfers: 8 });
  void groups.write([transfer('a')]);
  const b = groups.write([transfer('b')]);
  const c = groups.write([transfer('c')]);
  calls[0]!.answer({ status: 'ok', groups: [ok(1)] });
  await settled();
  expect(calls[1]?.keys).toEqual([['b'], ['c']]);
  return { calls, b, c };
}

describe('group commit queue (issue 12: transfers that arrive together share one call)', () => {
  it('a lone batch on a quiet server goes out at once, alone', async () => {
    const { calls, write } = handDriven();
    const groups = createTransferGroups(write, { lanes: 2, maxTransfers: 8 });
    const answer = groups.write([transfer('a')]);
    expect(calls.map((call) => call.keys)).toEqual([[['a']]]);
    calls[0]!.answer({ status: 'ok', groups: [ok(1)] });
    await expect(answer).resolves.toEqual(ok(1));
  });

  it('batches that arrive while every lane is busy wait, then go together in arrival order, each caller answered with its own group', async () => {
    const { calls, write } = handDriven();
    const groups = createTransferGroups(write, { lanes: 1, maxTransfers: 8 });
    const first = groups.write([transfer('a')]);
    const waiting = [groups.write([transfer('b'), transfer('c')]), groups.write([transfer('d')])];
    expect(calls).toHaveLength(1);
    calls[0]!.answer({ status: 'ok', groups: [ok(1)] });
    await settled();
    expect(calls[1]?.keys).toEqual([['b', 'c'], ['d']]);
    const refused: GroupOutcome = { status: 'insufficient', type: 'main' };
    calls[1]!.answer({ status: 'ok', groups: [ok(2), refused] });
    await expect(first).resolves.toEqual(ok(1));
    await expect(waiting[0]).resolves.toEqual(ok(2));
    await expect(waiting[1]).resolves.toEqual(refused);
    expect(groups.stats()).toEqual({ calls: 2, groups: 3 });
  });

  it('a call carries at most maxTransfers; the rest wait for the next lane', async () => {
    const { calls, write } = handDriven();
    const groups = createTransferGroups(write, { lanes: 1, maxTransfers: 3 });
    void groups.write([transfer('a')]);
    for (const key of ['b', 'c', 'd', 'e']) void groups.write([transfer(key)]);
    calls[0]!.answer({ status: 'ok', groups: [ok(1)] });
    await settled();
    expect(calls[1]?.keys).toEqual([['b'], ['c'], ['d']]);
    calls[1]!.answer({ status: 'ok', groups: [ok(2), ok(3), ok(4)] });
    await settled();
    expect(calls[2]?.keys).toEqual([['e']]);
  });

  it('a call that fails as a whole is sent again group by group, so one group’s error reaches only its own caller', async () => {
    const { calls, b, c } = await twoWaitingBehindOne();
    calls[1]!.answer(new Error('deadlock detected'));
    await settled();
    expect(calls.slice(2).map((call) => call.keys)).toEqual([[['b']], [['c']]]);
    calls[2]!.answer(new Error('the fault of b'));
    calls[3]!.answer({ status: 'ok', groups: [ok(3)] });
    await expect(b).rejects.toThrow('the fault of b');
    await expect(c).resolves.toEqual(ok(3));
  });

  it('a call that finds an account missing is sent again group by group; the group whose account is missing learns it', async () => {
    const { calls, b, c } = await twoWaitingBehindOne();
    calls[1]!.answer({ status: 'missing' });
    await settled();
    calls[2]!.answer({ status: 'ok', groups: [ok(2)] });
    calls[3]!.answer({ status: 'missing' });
    await expect(b).resolves.toEqual(ok(2));
    await expect(c).resolves.toEqual({ status: 'missing' });
  });

  it('a batch naming an account a call in flight holds waits for the call after it, even with a lane free; batches behind it on other accounts go ahead', async () => {
    const { calls, write } = handDriven();
    const groups = createTransferGroups(write, { lanes: 2, maxTransfers: 8 });
    void groups.write([transfer('a', [1, 100])]);
    const b = groups.write([transfer('b', [1, 101])]);
    void groups.write([transfer('c', [2, 102])]);
    // 'a' holds account 1: 'b' waits although the second lane is free; 'c' goes out on it.
    expect(calls.map((call) => call.keys)).toEqual([[['a']], [['c']]]);
    calls[1]!.answer({ status: 'ok', groups: [ok(3)] });
    await settled();
    expect(calls).toHaveLength(2);
    calls[0]!.answer({ status: 'ok', groups: [ok(1)] });
    await settled();
    expect(calls[2]?.keys).toEqual([['b']]);
    calls[2]!.answer({ status: 'ok', groups: [ok(2)] });
    await expect(b).resolves.toEqual(ok(2));
  });
});
