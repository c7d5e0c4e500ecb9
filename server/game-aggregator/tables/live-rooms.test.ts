/**
 * The LiveWave rooms' round cycle on demo seats (issue 15: a live-dealer-style table with a shared
 * round): betting window, close, one settlement per seat, the result phase, and the refusals a
 * client meets — a bet after the close, an unknown spot, a spot's bets over the table limit, a
 * stake above the fun balance. Time is a test clock: nothing waits.
 */
import { describe, expect, it } from 'vitest';
import { createSessionStore, type Session } from '../sessions';
import { autoRoulette, AUTO_ROULETTE_LIMITS } from './auto-roulette';
import { BettingClosedError, createLiveRooms } from './live-rooms';
import { seededRng } from './test-rng';

function setUp(phases?: { bettingMs?: number; resultMs?: number }) {
  let clock = 10_000;
  const store = createSessionStore({
    titles: new Map(),
    rng: seededRng(1),
    roundTimeoutMs: 60_000,
    sessionIdleMs: 60_000,
    now: () => clock,
  });
  const rooms = createLiveRooms({
    tables: new Map([[autoRoulette.id, autoRoulette]]),
    rng: seededRng(2),
    now: () => clock,
    phases,
  });
  const seat = (balanceMinor: bigint): Session =>
    store.open({
      mode: 'demo',
      titleId: autoRoulette.id,
      language: 'en',
      currency: 'EUR',
      returnUrl: 'http://127.0.0.1',
      siteOrigin: 'http://127.0.0.1',
      balanceMinor,
    });
  return { rooms, seat, advance: (ms: number) => (clock += ms) };
}

describe('live rooms', () => {
  it('a round takes bets while betting is open, settles every seat once at the close, shows the result, then opens the next round', async () => {
    const { rooms, seat, advance } = setUp();
    const alice = seat(10_000n);
    const bob = seat(10_000n);
    const opened = rooms.state(alice).round;
    expect(opened.phase).toBe('betting');
    expect(opened.ms_left).toBe(autoRoulette.bettingMs);
    await rooms.placeBet(alice, { spot: 'red', stake: '500' });
    await rooms.placeBet(alice, { spot: 'straight-17', stake: 100 });
    await rooms.placeBet(bob, { spot: 'black', stake: '1000' });
    expect(alice.balanceMinor).toBe(9_400n);
    expect(rooms.state(bob).players).toBe(2);

    advance(autoRoulette.bettingMs);
    rooms.tick();
    await rooms.closeNow(autoRoulette.id); // the close the tick started: settles nothing again
    const result = rooms.state(alice);
    expect(result.round.phase).toBe('result');
    const back = (spot: string, stake: bigint) => autoRoulette.settle({ spot, stakeMinor: stake }, result.round.outcome);
    const aliceWin = back('red', 500n) + back('straight-17', 100n);
    expect(result.win).toBe(aliceWin.toString());
    expect(alice.balanceMinor).toBe(9_400n + aliceWin);
    expect(bob.balanceMinor).toBe(9_000n + back('black', 1000n));

    advance(autoRoulette.resultMs);
    const next = rooms.state(alice);
    expect(next.round.phase).toBe('betting');
    expect(next.round.number).toBe(result.round.number + 1);
    expect(next.bets).toEqual([]);
    expect(next.win).toBeNull();
  });

  it('refuses a bet after the close (BETTING_CLOSED) and moves nothing', async () => {
    const { rooms, seat, advance } = setUp();
    const alice = seat(10_000n);
    expect(rooms.state(alice).round.phase).toBe('betting');
    advance(autoRoulette.bettingMs);
    await expect(rooms.placeBet(alice, { spot: 'red', stake: '500' })).rejects.toBeInstanceOf(BettingClosedError);
    expect(alice.balanceMinor).toBe(10_000n);
  });

  it('refuses unknown spots, invalid stakes, bets on one spot beyond the table limit, and stakes above the balance', async () => {
    const { rooms, seat } = setUp();
    const rich = seat(10n ** 9n);
    for (const input of [
      { spot: 'purple', stake: '100' },
      { spot: 'red', stake: '-100' },
      { spot: 'red', stake: '1.5' },
      { spot: 'red' },
    ])
      await expect(rooms.placeBet(rich, input)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await rooms.placeBet(rich, { spot: 'red', stake: AUTO_ROULETTE_LIMITS.maxMinor.toString() });
    await expect(rooms.placeBet(rich, { spot: 'red', stake: AUTO_ROULETTE_LIMITS.minMinor.toString() })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await rooms.placeBet(rich, { spot: 'black', stake: AUTO_ROULETTE_LIMITS.minMinor.toString() });
    const poor = seat(50n);
    await expect(rooms.placeBet(poor, { spot: 'red', stake: '100' })).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect(poor.balanceMinor).toBe(50n);
  });

  it('configured phases (AGGREGATOR_LIVE_BETTING_MS, AGGREGATOR_LIVE_RESULT_MS) replace every table’s own', async () => {
    const { rooms, seat, advance } = setUp({ bettingMs: 4_000, resultMs: 1_000 });
    const alice = seat(10_000n);
    expect(rooms.state(alice).round.ms_left).toBe(4_000);
    advance(3_999);
    await rooms.placeBet(alice, { spot: 'red', stake: '100' });
    advance(1);
    rooms.tick();
    await rooms.closeNow(autoRoulette.id);
    const result = rooms.state(alice).round;
    expect(result).toMatchObject({ phase: 'result', ms_left: 1_000 });
    advance(1_000);
    expect(rooms.state(alice).round).toMatchObject({ phase: 'betting', number: result.number + 1, ms_left: 4_000 });
  });
});
