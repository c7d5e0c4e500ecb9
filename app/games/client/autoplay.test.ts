/**
 * When an autoplay run stops (issue 5 jurisdiction settings: autoplay with loss and single-win
 * limits): after the planned rounds, at the loss limit of the run's net, at a round paying the
 * single-win limit or more; otherwise it goes on.
 */
import { describe, expect, it } from 'vitest';
import { stopAfterRound, type AutoplayPlan } from './autoplay';

const plan = (overrides: Partial<AutoplayPlan> = {}): AutoplayPlan => ({
  rounds: 10,
  lossLimitMinor: null,
  singleWinLimitMinor: null,
  ...overrides,
});

describe('autoplay stop rules', () => {
  it('goes on until the planned rounds are played', () => {
    expect(stopAfterRound(plan(), 9, -900n, 0n)).toBeNull();
    expect(stopAfterRound(plan(), 10, -1000n, 0n)).toBe('done');
  });

  it('stops when the run has lost the loss limit or more, not before', () => {
    const limited = plan({ lossLimitMinor: 500n });
    expect(stopAfterRound(limited, 4, -499n, 0n)).toBeNull();
    expect(stopAfterRound(limited, 5, -500n, 0n)).toBe('lossLimit');
    expect(stopAfterRound(limited, 5, 200n, 700n)).toBeNull();
  });

  it('stops after one round paying at least the single-win limit, even on the last round', () => {
    const limited = plan({ singleWinLimitMinor: 1000n });
    expect(stopAfterRound(limited, 3, 500n, 999n)).toBeNull();
    expect(stopAfterRound(limited, 3, 900n, 1000n)).toBe('winLimit');
    expect(stopAfterRound({ ...limited, rounds: 3 }, 3, 900n, 1500n)).toBe('winLimit');
  });
});
