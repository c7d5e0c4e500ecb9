/**
 * A table's event stream holds the tables running only while someone listens (issue 12 idle,
 * interest.ts): the hold ends with the last listener, and with a stream that could not start. It
 * sends the state again when the round's bets are settled, for pages to ask for their bets then.
 */
import { describe, expect, it } from 'vitest';
import type { LiveTable } from './context';
import { createLiveEvents } from './events';
import type { LiveGamesService, LiveState } from './service';

const TABLE: LiveTable = { siteId: 'aurora', sysname: 'live-roulette', engine: 'live-roulette' };
const POLL_MS = 5;
const passPolls = () => new Promise((resolve) => setTimeout(resolve, POLL_MS * 4));

/** A service whose table state fails `failures` times, counting the holds taken and released. */
function fakeService(failures: number) {
  const holds = { taken: 0, released: 0 };
  const service = {
    stateOf: async () => {
      if (failures-- > 0) throw new Error('database away');
      return { round: null } as unknown as LiveState;
    },
    holdInterest: () => {
      holds.taken++;
      return () => holds.released++;
    },
  };
  return { service: service as unknown as LiveGamesService, holds };
}

describe('live table events and interest (issue 12 idle)', () => {
  it('holds the tables while someone listens, once for all listeners, and lets go after the last', async () => {
    const { service, holds } = fakeService(0);
    const events = createLiveEvents(service, POLL_MS);
    const first = await events.subscribe(TABLE, () => undefined);
    const second = await events.subscribe(TABLE, () => undefined);
    expect(holds).toEqual({ taken: 1, released: 0 });
    first();
    await passPolls();
    expect(holds.released).toBe(0);
    second();
    await passPolls();
    expect(holds).toEqual({ taken: 1, released: 1 });
  });

  it('lets go of a stream that could not start', async () => {
    const { service, holds } = fakeService(1);
    const events = createLiveEvents(service, POLL_MS);
    await expect(events.subscribe(TABLE, () => undefined)).rejects.toThrow('database away');
    await passPolls();
    expect(holds).toEqual({ taken: 1, released: 1 });
  });

  it('sends the state once on connecting, again when the shown result’s bets are settled, and nothing while nothing changes (issue 5: the player sees the result and the balance follow)', async () => {
    const round = { id: '7', phase: 'result', bets_count: 1, multiplier: null, settled: false };
    const service = {
      stateOf: async () => ({ round: { ...round }, server_time: '' }) as unknown as LiveState,
      holdInterest: () => () => undefined,
    } as unknown as LiveGamesService;
    const events = createLiveEvents(service, POLL_MS);
    const states: boolean[] = [];
    const unsubscribe = await events.subscribe(TABLE, (event) => {
      if (event.event === 'state') states.push(event.data.round?.settled ?? false);
    });
    await passPolls();
    // The state once on connecting, and nothing more while nothing changes.
    expect(states).toEqual([false]);
    round.settled = true;
    await passPolls();
    unsubscribe();
    await passPolls();
    expect(states).toEqual([false, true]);
  });
});
