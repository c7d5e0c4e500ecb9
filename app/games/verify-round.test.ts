import { describe, expect, it } from 'vitest';
import { serverSeedHash } from '#common/games/fair';
import { applyStatefulAction, dealState, settledOutcome, statefulPayoutMinor } from '#common/games/stateful-replay';
import type { MinesState } from '#common/games/mines';
import { recomputeOutcome, verifyRoundInBrowser } from './verify-round';

const serverSeed = 'a'.repeat(64);
const seeds = { serverSeed, clientSeed: 'player-seed', nonce: 3 };

function stored(engine: 'dice' | 'slot-classic' | 'slot-fruits' | 'slot-cascade', bet: Record<string, unknown>) {
  // A stored outcome: JSON with the database's key order (reversed here).
  const outcome = recomputeOutcome(engine, bet, seeds) as Record<string, unknown>;
  const reordered = Object.fromEntries(Object.entries(outcome).reverse());
  return {
    engine,
    bet,
    outcome: reordered,
    server_seed_hash: serverSeedHash(serverSeed),
    client_seed: seeds.clientSeed,
    nonce: seeds.nonce,
  };
}

describe('verifying a round in the browser', () => {
  it('matches a dice round and each slot round recomputed from the revealed seed, whatever the key order', () => {
    expect(verifyRoundInBrowser(stored('dice', { stake: '1.00', direction: 'under', target: '50.00' }), serverSeed).isMatch).toBe(
      true,
    );
    for (const engine of ['slot-classic', 'slot-fruits', 'slot-cascade'] as const)
      expect(verifyRoundInBrowser(stored(engine, { stake: '1.00' }), serverSeed).isMatch).toBe(true);
  });

  it('finds a wrong seed, a changed outcome and another nonce', () => {
    const round = stored('dice', { stake: '1.00', direction: 'over', target: '20.00' });
    expect(verifyRoundInBrowser(round, 'b'.repeat(64))).toMatchObject({ isHashMatch: false, isMatch: false });
    expect(verifyRoundInBrowser({ ...round, outcome: { ...round.outcome, rollHundredths: -1 } }, serverSeed)).toMatchObject({
      isHashMatch: true,
      isOutcomeMatch: false,
    });
    expect(verifyRoundInBrowser({ ...round, nonce: 4 }, serverSeed).isOutcomeMatch).toBe(false);
  });

  it('matches a mines round from its deal and recorded actions, and finds an action changed after the fact (issue 5 stateful rounds)', () => {
    const bet = { stake: '1.00', mines: 3 };
    const dealt = dealState('mines', bet, seeds) as MinesState;
    const safe = [...Array(25).keys()].find((cell) => !dealt.mines.includes(cell)) ?? 0;
    const actions = [
      { action: 'reveal', params: { cell: safe }, request_id: 'r1' },
      { action: 'cashout', params: {}, request_id: 'r2' },
    ];
    let state = dealState('mines', bet, seeds);
    for (const item of actions) state = applyStatefulAction('mines', state, item.action, item.params, seeds);
    const outcome = settledOutcome('mines', state, actions, 'player', statefulPayoutMinor('mines', state));
    const round = {
      engine: 'mines',
      bet,
      outcome,
      server_seed_hash: serverSeedHash(serverSeed),
      client_seed: seeds.clientSeed,
      nonce: seeds.nonce,
    };
    expect(verifyRoundInBrowser(round, serverSeed).isMatch).toBe(true);
    const mine = dealt.mines[0] ?? 0;
    const tampered = { ...outcome, actions: [{ action: 'reveal', params: { cell: mine }, request_id: 'r1' }] };
    expect(verifyRoundInBrowser({ ...round, outcome: tampered }, serverSeed).isOutcomeMatch).toBe(false);
  });
});
