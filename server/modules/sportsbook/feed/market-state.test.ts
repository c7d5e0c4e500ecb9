import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFeedMessage, type EventFeedMessage, type FeedMessageInput } from './messages';
import { applyToEvent, NEW_EVENT, producerDown, type EventState } from './market-state';

let sequenceNumber = 0;
function message(body: Record<string, unknown>): EventFeedMessage {
  const parsed = parseFeedMessage({
    producer: 'live',
    event_id: 'e',
    timestamp: 0,
    sequence: ++sequenceNumber,
    ...body,
  } as FeedMessageInput);
  if (parsed.type === 'alive') throw new Error('not an event message');
  return parsed;
}

const total = { type: 'total', specifiers: { total: '2.5' } };
const key = 'total|total=2.5';
const odds = (over: string, under: string) =>
  message({
    type: 'odds_change',
    markets: [
      {
        ...total,
        status: 'active',
        outcomes: [
          { id: 'over', odds: over, active: true },
          { id: 'under', odds: under, active: true },
        ],
      },
    ],
  });
const settle = (certainty: 'provisional' | 'confirmed', overWon: 0 | 1) =>
  message({
    type: 'bet_settlement',
    certainty,
    markets: [
      {
        ...total,
        outcomes: [
          { id: 'over', result: overWon },
          { id: 'under', result: overWon === 1 ? 0 : 1 },
        ],
      },
    ],
  });
const stop = () => message({ type: 'bet_stop' });
const cancel = () => message({ type: 'bet_cancel', start_time: 10, end_time: 20, markets: [total] });
const rollbackSettlement = () => message({ type: 'rollback_bet_settlement', markets: [total] });
const rollbackCancel = () => message({ type: 'rollback_bet_cancel', markets: [total] });

function run(messages: EventFeedMessage[], from: EventState = NEW_EVENT) {
  let state = from;
  const effects = [];
  for (const m of messages) {
    const step = applyToEvent(state, m);
    state = step.state;
    effects.push(...step.effects);
  }
  return { state, effects };
}

describe('issue 14 feed: what each message does to the markets', () => {
  it('an odds change opens a market with its prices; a bet stop suspends it until the next odds change', () => {
    const { state } = run([odds('1.85', '1.95'), stop()]);
    expect(state.markets[key]).toMatchObject({ status: 'suspended', odds: { over: 18_500n, under: 19_500n } });
    expect(run([odds('1.90', '1.90')], state).state.markets[key]!.status).toBe('active');
  });

  it('a settled market ignores later odds; a rollback of the settlement reopens it as it was', () => {
    const settled = run([odds('1.85', '1.95'), stop(), settle('confirmed', 1), odds('1.50', '2.50')]);
    expect(settled.state.markets[key]!.status).toBe('settled');
    expect(settled.effects).toHaveLength(1);
    const rolledBack = run([rollbackSettlement()], settled.state);
    expect(rolledBack.state.markets[key]!.status).toBe('suspended');
    expect(rolledBack.effects).toEqual([{ kind: 'rollback_settlement', key }]);
  });

  it('provisional then confirmed: the confirmation is reported once, and a changed result is a correction', () => {
    const same = run([odds('1.85', '1.95'), settle('provisional', 1), settle('confirmed', 1), settle('confirmed', 1)]);
    expect(same.effects.map((e) => e.kind === 'settle' && [e.certainty, e.correction])).toEqual([
      ['provisional', false],
      ['confirmed', false],
    ]);
    const corrected = run([odds('1.85', '1.95'), settle('provisional', 1), settle('confirmed', 0)]);
    expect(corrected.effects.at(-1)).toMatchObject({ kind: 'settle', certainty: 'confirmed', correction: true });
    expect(corrected.state.markets[key]!.settlement!.results.under!.won).toBe(true);
  });

  it('a bet cancel voids bets within its window; its rollback restores the market', () => {
    const cancelled = run([odds('1.85', '1.95'), cancel()]);
    expect(cancelled.effects).toEqual([{ kind: 'cancel', key, startTime: 10, endTime: 20 }]);
    const restored = run([rollbackCancel()], cancelled.state);
    expect(restored.state.markets[key]!.status).toBe('active');
    expect(restored.effects).toEqual([{ kind: 'rollback_cancel', key }]);
  });

  it('issue 14 bet cancel for a window: a later settlement still applies (to the bets outside the window), and undoing the cancel then settles the window too', () => {
    const settled = run([odds('1.85', '1.95'), cancel(), settle('confirmed', 1)]);
    expect(settled.state.markets[key]).toMatchObject({ status: 'settled', cancel: { startTime: 10, endTime: 20 } });
    expect(settled.effects.map((effect) => effect.kind)).toEqual(['cancel', 'settle']);
    const undone = run([rollbackCancel()], settled.state);
    expect(undone.state.markets[key]!.status).toBe('settled');
    expect(undone.state.markets[key]!.cancel).toBeUndefined();
    expect(undone.effects).toEqual([
      { kind: 'rollback_cancel', key },
      {
        kind: 'settle',
        key,
        certainty: 'confirmed',
        results: settled.state.markets[key]!.settlement!.results,
        correction: false,
      },
    ]);
    // A rollback of the settlement leaves the window's cancel standing.
    const reopened = run([rollbackSettlement()], settled.state);
    expect(reopened.state.markets[key]).toMatchObject({ status: 'cancelled', cancel: { startTime: 10, endTime: 20 } });
    expect(reopened.state.markets[key]!.settlement).toBeUndefined();
  });

  it('issue 14 bet cancel without a window voids every bet: a later settlement has nothing left to settle', () => {
    const whole = message({ type: 'bet_cancel', markets: [total] });
    const { state, effects } = run([odds('1.85', '1.95'), whole, settle('confirmed', 1)]);
    expect(state.markets[key]!.status).toBe('cancelled');
    expect(effects.map((effect) => effect.kind)).toEqual(['cancel']);
  });

  it('a silent producer suspends every open market, settled ones stay settled', () => {
    const other = message({
      type: 'odds_change',
      markets: [{ type: '1x2', status: 'active', outcomes: [{ id: '1', odds: '2.10', active: true }] }],
    });
    const { state } = run([odds('1.85', '1.95'), other, settle('confirmed', 0)]);
    const down = producerDown(state);
    expect(down.markets['1x2']!.status).toBe('suspended');
    expect(down.markets[key]!.status).toBe('settled');
  });

  it('every message applied twice changes nothing and reports nothing the second time', () => {
    const anyMessage = fc.constantFrom(
      () => odds('1.85', '1.95'),
      () => stop(),
      () => settle('provisional', 1),
      () => settle('confirmed', 0),
      () => cancel(),
      () => rollbackSettlement(),
      () => rollbackCancel(),
    );
    fc.assert(
      fc.property(fc.array(anyMessage, { maxLength: 8 }), anyMessage, (history, last) => {
        const { state } = run(history.map((make) => make()));
        const m = last();
        const once = applyToEvent(state, m);
        const twice = applyToEvent(once.state, m);
        expect(twice.state).toEqual(once.state);
        expect(twice.effects).toEqual([]);
      }),
    );
  });
});
