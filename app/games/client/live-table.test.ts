import { describe, expect, it } from 'vitest';
import type { LiveBetView, LiveRoundView } from '#common/contract';
import { isAwaitingSettlement } from './live-table';

/** A round in the given phase; only its id and phase matter to the rule under test. */
function roundIn(id: string, phase: LiveRoundView['phase']): LiveRoundView {
  return { id, phase } as LiveRoundView;
}

function betIn(roundId: string, status: string): LiveBetView {
  return { id: `${roundId}-${status}`, round_id: roundId, status } as LiveBetView;
}

describe('a live table shows the caller its bet settled with the result (issue 5: the player sees the result and the balance follow)', () => {
  it('asks again while the shown result has an open bet of that round, the settlement being written a moment later', () => {
    expect(isAwaitingSettlement(roundIn('7', 'result'), '7', [betIn('7', 'won'), betIn('7', 'open')])).toBe(true);
  });

  it('stops once every bet of the round is settled, before the result, and for bets of another round', () => {
    expect(isAwaitingSettlement(roundIn('7', 'result'), '7', [betIn('7', 'won'), betIn('7', 'lost')])).toBe(false);
    expect(isAwaitingSettlement(roundIn('7', 'running'), '7', [betIn('7', 'open')])).toBe(false);
    expect(isAwaitingSettlement(roundIn('7', 'betting'), '7', [betIn('7', 'open')])).toBe(false);
    expect(isAwaitingSettlement(roundIn('8', 'result'), '7', [betIn('7', 'open')])).toBe(false);
    expect(isAwaitingSettlement(roundIn('7', 'result'), '7', [])).toBe(false);
    expect(isAwaitingSettlement(null, null, [])).toBe(false);
  });
});
