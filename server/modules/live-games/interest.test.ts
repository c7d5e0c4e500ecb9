/**
 * Who is at the live tables (issue 12: an idle server costs under 1 % of a core): the tables run
 * while an event stream is open and for idleAfterMs after a call at a table, and a sleeping
 * scheduler is woken only when someone comes back after a quiet spell.
 */
import { describe, expect, it } from 'vitest';
import { createLiveInterest } from './interest';

/** Interest with a 60 s idle time on a clock the test moves. */
function clocked() {
  let now = 1_000;
  const interest = createLiveInterest(60_000, () => now);
  return { interest, pass: (ms: number) => (now += ms) };
}

describe('live tables interest (issue 12 idle)', () => {
  it('a call keeps the tables running for idleAfterMs, then they are quiet', () => {
    const { interest, pass } = clocked();
    expect(interest.isActive()).toBe(false);
    interest.touch();
    pass(59_999);
    expect(interest.isActive()).toBe(true);
    pass(1);
    expect(interest.isActive()).toBe(false);
  });

  it('an open stream keeps them running however long it stays; its close counts as a last call', () => {
    const { interest, pass } = clocked();
    const release = interest.hold();
    pass(3_600_000);
    expect(interest.isActive()).toBe(true);
    release();
    release();
    pass(59_999);
    expect(interest.isActive()).toBe(true);
    pass(1);
    expect(interest.isActive()).toBe(false);
  });

  it('wakes its listeners when someone comes after a quiet spell, not on every call', () => {
    const { interest, pass } = clocked();
    let wakes = 0;
    const stop = interest.onReturn(() => wakes++);
    interest.touch();
    interest.touch();
    const release = interest.hold();
    expect(wakes).toBe(1);
    release();
    pass(60_000);
    interest.hold();
    expect(wakes).toBe(2);
    stop();
    pass(10 * 60_000);
    interest.touch();
    expect(wakes).toBe(2);
  });

  it('idleAfterMs 0 keeps the tables always running', () => {
    const interest = createLiveInterest(0, () => 0);
    expect(interest.isActive()).toBe(true);
  });
});
