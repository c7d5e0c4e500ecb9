import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkLiveness, isProducerUp, NO_PRODUCERS, recordAlive } from './liveness';

const TIMEOUT = 20_000;

describe('issue 14 feed: a silent producer suspends its markets until it recovers', () => {
  it('a producer is down exactly when its last heartbeat is older than the timeout', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 0, max: 3 * TIMEOUT }), (lastAlive, silence) => {
        const alive = recordAlive(NO_PRODUCERS, 'live', lastAlive, true).state;
        const checked = checkLiveness(alive, lastAlive + silence, TIMEOUT);
        expect(isProducerUp(checked.state, 'live')).toBe(silence <= TIMEOUT);
        expect(checked.transitions).toEqual(silence > TIMEOUT ? [{ producer: 'live', change: 'down' }] : []);
      }),
    );
  });

  it('going down is reported once; the next subscribed heartbeat reports the recovery', () => {
    let state = recordAlive(NO_PRODUCERS, 'live', 0, true).state;
    const down = checkLiveness(state, TIMEOUT + 1, TIMEOUT);
    expect(down.transitions).toHaveLength(1);
    expect(checkLiveness(down.state, TIMEOUT + 2, TIMEOUT).transitions).toEqual([]);
    const back = recordAlive(down.state, 'live', TIMEOUT + 5, true);
    expect(back.transitions).toEqual([{ producer: 'live', change: 'recovered' }]);
    state = back.state;
    expect(isProducerUp(state, 'live')).toBe(true);
  });

  it('a heartbeat saying the producer lost its subscription takes it down at once', () => {
    const state = recordAlive(NO_PRODUCERS, 'prematch', 0, true).state;
    const lost = recordAlive(state, 'prematch', 1_000, false);
    expect(lost.transitions).toEqual([{ producer: 'prematch', change: 'down' }]);
    expect(isProducerUp(lost.state, 'prematch')).toBe(false);
  });

  it('a late, reordered heartbeat does not revive a silent producer', () => {
    const state = recordAlive(NO_PRODUCERS, 'live', 50_000, true).state;
    const down = checkLiveness(state, 80_000, TIMEOUT).state;
    expect(recordAlive(down, 'live', 40_000, true).transitions).toEqual([]);
    expect(isProducerUp(recordAlive(down, 'live', 40_000, true).state, 'live')).toBe(false);
  });
});
