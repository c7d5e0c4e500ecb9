import { describe, expect, it } from 'vitest';
import type { LiveBetView, LiveRoundView } from '#common/contract';
import { betsKeyOf, isAwaitingSettlement } from './live-table';

/** A round in the given phase; only its id, phase and settlement matter to the rules under test. */
function roundIn(id: string, phase: LiveRoundView['phase'], settled = phase === 'result'): LiveRoundView {
  return { id, phase, settled } as LiveRoundView;
}

function betIn(roundId: string, status: string): LiveBetView {
  return { id: `${roundId}-${status}`, round_id: roundId, status } as LiveBetView;
}

describe('a live table shows the caller its bet settled with the result (issue 5: the player sees the result and the balance follow)', () => {
  it('asks for the bets when the round, its phase or its settlement changes, the settlement being written a moment after the result', () => {
    const keys = [
      betsKeyOf(roundIn('7', 'betting')),
      betsKeyOf(roundIn('7', 'running')),
      betsKeyOf(roundIn('7', 'result', false)),
      betsKeyOf(roundIn('7', 'result', true)),
      betsKeyOf(roundIn('8', 'betting')),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(betsKeyOf(roundIn('7', 'result', true))).toBe(betsKeyOf(roundIn('7', 'result', true)));
    expect(betsKeyOf(null)).toBe('');
  });

  it('asks again when an answer shows open a bet of a round the table says is settled', () => {
    expect(isAwaitingSettlement(roundIn('7', 'result'), '7', [betIn('7', 'won'), betIn('7', 'open')])).toBe(true);
  });

  it('does not poll before the settlement is announced, once every bet is settled, before the result, or for another round', () => {
    expect(isAwaitingSettlement(roundIn('7', 'result', false), '7', [betIn('7', 'open')])).toBe(false);
    expect(isAwaitingSettlement(roundIn('7', 'result'), '7', [betIn('7', 'won'), betIn('7', 'lost')])).toBe(false);
    expect(isAwaitingSettlement(roundIn('7', 'running'), '7', [betIn('7', 'open')])).toBe(false);
    expect(isAwaitingSettlement(roundIn('7', 'betting'), '7', [betIn('7', 'open')])).toBe(false);
    expect(isAwaitingSettlement(roundIn('8', 'result'), '7', [betIn('7', 'open')])).toBe(false);
    expect(isAwaitingSettlement(roundIn('7', 'result'), '7', [])).toBe(false);
    expect(isAwaitingSettlement(null, null, [])).toBe(false);
  });
});
