import { describe, expect, it } from 'vitest';
import { settleLine } from '../rules/settlement';
import { cancelCovers, outcomeResultFromFeed, parseFeedMessage } from './messages';

const base = { producer: 'live', event_id: 'sim:1', timestamp: 1_000, sequence: 3 };

describe('issue 14 feed messages follow the unified odds feed', () => {
  it('an odds change carries market status and outcome odds; a price outside 1.01–1000 is refused', () => {
    const message = {
      type: 'odds_change',
      ...base,
      markets: [
        { type: 'total', specifiers: { total: '2.5' }, status: 'active', outcomes: [{ id: 'over', odds: '1.85', active: true }] },
      ],
    };
    expect(parseFeedMessage(message).type).toBe('odds_change');
    const bad = structuredClone(message);
    bad.markets[0]!.outcomes[0]!.odds = '1.00';
    expect(() => parseFeedMessage(bad)).toThrow();
  });

  it('a settlement’s void and dead-heat factors settle as the formula says (half lost: half the stake back)', () => {
    const settlement = parseFeedMessage({
      type: 'bet_settlement',
      ...base,
      certainty: 'confirmed',
      markets: [
        {
          type: 'asian_handicap',
          specifiers: { hcp: '-0.25' },
          outcomes: [
            { id: '1', result: 0, void_factor: 0.5 },
            { id: '2', result: 1, void_factor: 0.5 },
          ],
        },
      ],
    });
    if (settlement.type !== 'bet_settlement') throw new Error('parsed as another type');
    const [home, away] = settlement.markets[0]!.outcomes.map(outcomeResultFromFeed);
    expect(settleLine(1_000n, [{ oddsUnits: 20_000n, result: home! }])).toEqual({ state: 'settled', payoutMinor: 500n });
    expect(settleLine(1_000n, [{ oddsUnits: 20_000n, result: away! }])).toEqual({ state: 'settled', payoutMinor: 1_500n });
  });

  it('a dead-heat factor of a third pays a third of the odds, never rounded up', () => {
    const result = outcomeResultFromFeed({ id: 'x', result: 1, void_factor: 0, dead_heat_factor: 1 / 3 });
    const line = settleLine(300n, [{ oddsUnits: 30_000n, result }]);
    expect(line.state === 'settled' && line.payoutMinor <= 300n && line.payoutMinor >= 299n).toBe(true);
  });

  it('a bet cancel voids bets placed inside its window only', () => {
    const window = { start_time: 1_000, end_time: 2_000 };
    expect([999, 1_000, 1_999, 2_000].map((at) => cancelCovers(window, at))).toEqual([false, true, true, false]);
    expect(cancelCovers({}, 5)).toBe(true);
  });

  it('unknown message types and malformed heartbeats are refused', () => {
    expect(() => parseFeedMessage({ type: 'snapshot_complete', ...base })).toThrow();
    expect(() => parseFeedMessage({ type: 'alive', producer: 'live', timestamp: -1, subscribed: true })).toThrow();
  });
});
