import { describe, expect, it } from 'vitest';
import { serverSeedHash } from '#common/games/fair';
import { recomputeOutcome, verifyRoundInBrowser } from './verify-round';

const serverSeed = 'a'.repeat(64);
const seeds = { serverSeed, clientSeed: 'player-seed', nonce: 3 };

function stored(engine: 'dice' | 'slot-classic' | 'slot-fruits' | 'slot-cascade', bet: Record<string, unknown>) {
  // A stored outcome: JSON with the database's key order (reversed here).
  const outcome = recomputeOutcome(engine, bet, seeds) as Record<string, unknown>;
  const reordered = Object.fromEntries(Object.entries(outcome).reverse());
  return { engine, bet, outcome: reordered, server_seed_hash: serverSeedHash(serverSeed), client_seed: seeds.clientSeed, nonce: seeds.nonce };
}

describe('verifying a round in the browser', () => {
  it('matches a dice round and each slot round recomputed from the revealed seed, whatever the key order', () => {
    expect(verifyRoundInBrowser(stored('dice', { stake: '1.00', direction: 'under', target: '50.00' }), serverSeed).isMatch).toBe(true);
    for (const engine of ['slot-classic', 'slot-fruits', 'slot-cascade'] as const) expect(verifyRoundInBrowser(stored(engine, { stake: '1.00' }), serverSeed).isMatch).toBe(true);
  });

  it('finds a wrong seed, a changed outcome and another nonce', () => {
    const round = stored('dice', { stake: '1.00', direction: 'over', target: '20.00' });
    expect(verifyRoundInBrowser(round, 'b'.repeat(64))).toMatchObject({ isHashMatch: false, isMatch: false });
    expect(verifyRoundInBrowser({ ...round, outcome: { ...round.outcome, rollHundredths: -1 } }, serverSeed)).toMatchObject({ isHashMatch: true, isOutcomeMatch: false });
    expect(verifyRoundInBrowser({ ...round, nonce: 4 }, serverSeed).isOutcomeMatch).toBe(false);
  });
});
