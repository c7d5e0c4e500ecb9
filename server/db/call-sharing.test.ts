/**
 * The shared calls' queue (issue 12; call-sharing.ts), as shared rounds use it: who goes out when, with whom, and who
 * learns what. The database side (each round all or nothing inside one transaction) is tested on
 * both databases in shared-rounds.test.ts; here the call is a hand-driven stand-in so every
 * interleaving is chosen, not hoped for.
 */
import { describe, expect, it } from 'vitest';
import { createCallSharing } from './call-sharing';

interface Round {
  owner: string;
  id: string;
}

/** A play whose calls stay open until the test answers them; each round is answered with its id. */
function handDriven() {
  const calls: { ids: string[]; answer: (error?: Error) => void }[] = [];
  const play = (rounds: readonly Round[]) =>
    new Promise<string[]>((resolve, reject) => {
      calls.push({
        ids: rounds.map((round) => round.id),
        answer: (error) => (error ? reject(error) : resolve(rounds.map((round) => `answer:${round.id}`))),
      });
    });
  return { calls, play };
}

/** One turn of the event loop: the queue takes its calls after the requests waiting on their sockets are read. */
const turn = () => new Promise((resolve) => setImmediate(resolve));
/** A call's end settles its promise first, and the queue then takes the next call on the turn after. */
const afterCallEnds = async () => {
  await turn();
  await turn();
};
const round = (owner: string, id: string): Round => ({ owner, id });

describe('shared rounds queue (issue 12: rounds that arrive together share one transaction)', () => {
  it('a lone round on a quiet server goes out on the next turn of the event loop, alone, and gets its answer', async () => {
    const { calls, play } = handDriven();
    const sharing = createCallSharing(play, (r: Round) => r.owner, { lanes: 1, maxItems: 8 });
    const answer = sharing.submit(round('p1', 'a'));
    await turn();
    expect(calls.map((call) => call.ids)).toEqual([['a']]);
    calls[0]!.answer();
    await expect(answer).resolves.toBe('answer:a');
  });

  it('rounds that arrive in the same turn, or while the lane is busy, go together in arrival order, each caller answered with its own', async () => {
    const { calls, play } = handDriven();
    const sharing = createCallSharing(play, (r: Round) => r.owner, { lanes: 1, maxItems: 8 });
    const first = [sharing.submit(round('p1', 'a')), sharing.submit(round('p2', 'b'))];
    await turn();
    expect(calls.map((call) => call.ids)).toEqual([['a', 'b']]);
    const later = [sharing.submit(round('p3', 'c')), sharing.submit(round('p4', 'd'))];
    await turn();
    expect(calls).toHaveLength(1);
    calls[0]!.answer();
    await afterCallEnds();
    expect(calls[1]?.ids).toEqual(['c', 'd']);
    calls[1]!.answer();
    await expect(Promise.all([...first, ...later])).resolves.toEqual(['answer:a', 'answer:b', 'answer:c', 'answer:d']);
    expect(sharing.stats()).toEqual({ calls: 2, rounds: 4 });
  });

  it("one owner's rounds never share a call nor run in two calls at once: the second waits for the first's call to end", async () => {
    const { calls, play } = handDriven();
    const sharing = createCallSharing(play, (r: Round) => r.owner, { lanes: 2, maxItems: 8 });
    void sharing.submit(round('p1', 'a'));
    void sharing.submit(round('p1', 'b'));
    void sharing.submit(round('p2', 'c'));
    await turn();
    // Two lanes free, but 'b' is p1's like 'a': it waits while 'c' goes with 'a'.
    expect(calls.map((call) => call.ids)).toEqual([['a', 'c']]);
    calls[0]!.answer();
    await afterCallEnds();
    expect(calls[1]?.ids).toEqual(['b']);
  });

  it('a call takes at most maxItems; the rest go in the next lane', async () => {
    const { calls, play } = handDriven();
    const sharing = createCallSharing(play, (r: Round) => r.owner, { lanes: 2, maxItems: 2 });
    for (const id of ['a', 'b', 'c', 'd', 'e']) void sharing.submit(round(`p-${id}`, id));
    await turn();
    expect(calls.map((call) => call.ids)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    calls[0]!.answer();
    await afterCallEnds();
    expect(calls[2]?.ids).toEqual(['e']);
  });

  it("a call that fails rejects its own rounds only; the next call's rounds are answered", async () => {
    const { calls, play } = handDriven();
    const sharing = createCallSharing(play, (r: Round) => r.owner, { lanes: 1, maxItems: 8 });
    const failed = [sharing.submit(round('p1', 'a')), sharing.submit(round('p2', 'b'))];
    await turn();
    const next = sharing.submit(round('p3', 'c'));
    calls[0]!.answer(new Error('the database went away'));
    for (const answer of failed) await expect(answer).rejects.toThrow('the database went away');
    await afterCallEnds();
    calls[1]!.answer();
    await expect(next).resolves.toBe('answer:c');
  });

  it('a hold starts no call while rounds arrive over several turns; its release sends them side by side, once', async () => {
    const { calls, play } = handDriven();
    const sharing = createCallSharing(play, (r: Round) => r.owner, { lanes: 2, maxItems: 8 });
    const held = sharing.hold();
    const answers = [sharing.submit(round('p1', 'a'))];
    await turn();
    answers.push(sharing.submit(round('p2', 'b')), sharing.submit(round('p1', 'c')));
    await turn();
    expect(calls).toEqual([]);
    expect(held.waiting()).toBe(3);
    held.release();
    held.release();
    await turn();
    // p1's second round still waits for the call that holds its first.
    expect(calls.map((call) => call.ids)).toEqual([['a', 'b']]);
    expect(held.waiting()).toBe(1);
    calls[0]!.answer();
    await afterCallEnds();
    expect(calls[1]?.ids).toEqual(['c']);
    calls[1]!.answer();
    await expect(Promise.all(answers)).resolves.toEqual(['answer:a', 'answer:b', 'answer:c']);
  });
});

describe('shared rounds queue with a gathering wait (issue 12: players who play in a loop share one call, not two in turn)', () => {
  const GATHER_MS = 40;

  it('a lone owner who plays again goes out at once: nobody else is expected back', async () => {
    const { calls, play } = handDriven();
    const sharing = createCallSharing(play, (r: Round) => r.owner, { lanes: 1, maxItems: 8, gatherMs: 60_000 });
    void sharing.submit(round('p1', 'a'));
    await turn();
    calls[0]!.answer();
    await afterCallEnds();
    void sharing.submit(round('p1', 'b'));
    await turn();
    expect(calls.map((call) => call.ids)).toEqual([['a'], ['b']]);
  });

  it('the next call waits for the owners the last call answered, and goes the moment the last of them is back', async () => {
    const { calls, play } = handDriven();
    const sharing = createCallSharing(play, (r: Round) => r.owner, { lanes: 1, maxItems: 8, gatherMs: 60_000 });
    void sharing.submit(round('p1', 'a'));
    void sharing.submit(round('p2', 'b'));
    await turn();
    // p3 arrives while p1 and p2 are in the database.
    void sharing.submit(round('p3', 'c'));
    calls[0]!.answer();
    await afterCallEnds();
    expect(calls).toHaveLength(1);
    void sharing.submit(round('p1', 'd'));
    await afterCallEnds();
    expect(calls).toHaveLength(1);
    void sharing.submit(round('p2', 'e'));
    await turn();
    expect(calls.map((call) => call.ids)).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
  });

  it('an owner whose next round already waits is not waited for', async () => {
    const { calls, play } = handDriven();
    const sharing = createCallSharing(play, (r: Round) => r.owner, { lanes: 1, maxItems: 8, gatherMs: 60_000 });
    void sharing.submit(round('p1', 'a'));
    void sharing.submit(round('p2', 'b'));
    await turn();
    // p1 sends again before its answer: that round waits for the call in flight to end.
    void sharing.submit(round('p1', 'c'));
    calls[0]!.answer();
    await afterCallEnds();
    expect(calls).toHaveLength(1);
    void sharing.submit(round('p2', 'd'));
    await turn();
    expect(calls[1]?.ids).toEqual(['c', 'd']);
  });

  it('an owner who does not come back holds the others up once, for gatherMs at most', async () => {
    const { calls, play } = handDriven();
    const sharing = createCallSharing(play, (r: Round) => r.owner, { lanes: 1, maxItems: 8, gatherMs: GATHER_MS });
    void sharing.submit(round('p1', 'a'));
    void sharing.submit(round('p2', 'b'));
    await turn();
    calls[0]!.answer();
    await afterCallEnds();
    void sharing.submit(round('p1', 'c'));
    await afterCallEnds();
    expect(calls).toHaveLength(1);
    await expect.poll(() => calls.length, { timeout: 5_000 }).toBe(2);
    expect(calls[1]?.ids).toEqual(['c']);
    // p2 is no longer expected: p1's next round goes at once.
    calls[1]!.answer();
    await afterCallEnds();
    void sharing.submit(round('p1', 'd'));
    await turn();
    expect(calls[2]?.ids).toEqual(['d']);
  });

  it('a full call does not wait for anyone', async () => {
    const { calls, play } = handDriven();
    const sharing = createCallSharing(play, (r: Round) => r.owner, { lanes: 1, maxItems: 2, gatherMs: 60_000 });
    void sharing.submit(round('p1', 'a'));
    void sharing.submit(round('p2', 'b'));
    await turn();
    void sharing.submit(round('p3', 'c'));
    void sharing.submit(round('p4', 'd'));
    calls[0]!.answer();
    await afterCallEnds();
    expect(calls.map((call) => call.ids)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });
});
