/**
 * Real and demo play of the single-request in-house games through the product API on a real
 * database (issue 5; architecture §5 money, §6 provably fair games), with the ledger check after
 * the money scenarios.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { playDice } from '#common/games/dice';
import { FairRng, sha256Hex } from '#common/games/fair';
import { playRoulette, type RouletteBet } from '#common/games/roulette';
import { playCascadeSlot } from '#common/games/slot-cascade';
import { playClassicSlot } from '#common/games/slot-classic';
import { playFruitsSlot } from '#common/games/slot-fruits';
import { amountToMinor, minorToAmount } from '#common/money';
import { ApiError } from '#common/errors';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { fundPlayer } from '../../../test/host-player';
import { Browser, signedInPlayer, type ApiAnswer } from '../../../test/player';
import { checkLedger } from '../wallet';
import { ledgerTransfers } from '../../db/schema';
import type { RoundView, SeedsView } from './service';
import { gameRounds } from './tables';

interface PlayAnswer {
  round: RoundView;
  is_replay: boolean;
  balance: { amount: string; currency: string } | null;
}

const DICE = 'dice-roll';
const ROULETTE = 'european-roulette';
const CLASSIC = 'aurora-fortune';
const FRUITS = 'golden-reels';
const CASCADE = 'cascade-gems';

/** JSON as the round stores it: bigints as decimal strings. */
const asJson = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item)));

describe.each(testDatabaseKinds())('game rounds on %s', (kind) => {
  let t: TestApp;
  let siteId: string;
  let currency: string;
  let sequence = 0;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const site = await t.services.sites.resolveSite('127.0.0.1');
    siteId = site.id;
    currency = site.defaultCurrency;
  });
  afterAll(() => t.close());

  const expectSoundLedger = async () => {
    const report = await checkLedger(t.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
  };

  const fund = (uid: number, amount: string) => fundPlayer(t, { uid, siteId, currency }, amount);

  async function fundedPlayer(amount: string) {
    const signedIn = await signedInPlayer(t);
    if (amount !== '0.00') await fund(signedIn.uid, amount);
    return signedIn;
  }

  function play(
    browser: Browser,
    sysname: string,
    bet: unknown,
    options: { mode?: 'real' | 'demo'; requestId?: string } = {},
  ): Promise<ApiAnswer> {
    return browser.call('games.play', {
      sysname,
      mode: options.mode ?? 'real',
      bet: typeof bet === 'string' ? bet : JSON.stringify(bet),
      request_id: options.requestId ?? `req-${sequence++}`,
    });
  }

  async function balances(uid: number) {
    return t.services.wallet.balances(siteId, uid, currency);
  }

  async function transfersOf(uid: number) {
    return t.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.userId, uid));
  }

  async function roundCount(ownerKey: string): Promise<number> {
    const [row] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(gameRounds)
      .where(eq(gameRounds.ownerKey, ownerKey));
    return row?.n ?? 0;
  }

  it('shows the server seed hash before play; after rotation the revealed seed hashes to it and recomputes every past round with common/games (provably fair)', async () => {
    const { browser } = await fundedPlayer('100.00');
    const before = browser.data<SeedsView>(await browser.call('games.getSeeds', {}, 'GET'));
    expect(before.server_seed_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(before.nonce).toBe(0);
    const set = browser.data<SeedsView>(await browser.call('games.setClientSeed', { client_seed: 'my lucky seed' }));
    expect(set).toEqual({ server_seed_hash: before.server_seed_hash, client_seed: 'my lucky seed', nonce: 0 });

    const bets: [string, unknown][] = [
      [DICE, { stake: '1.00', direction: 'under', target: '50.00' }],
      [DICE, { stake: '0.50', direction: 'over', target: 20 }],
      [
        ROULETTE,
        {
          bets: [
            { kind: 'red', stake: '1.00' },
            { kind: 'straight', numbers: [17], stake: '0.20' },
            { kind: 'dozen', index: 2, stake: '0.30' },
          ],
        },
      ],
      [CLASSIC, { stake: '0.50' }],
      [FRUITS, { stake: '0.40' }],
      [CASCADE, { stake: '0.30' }],
    ];
    const rounds: RoundView[] = [];
    for (const [sysname, bet] of bets) rounds.push(browser.data<PlayAnswer>(await play(browser, sysname, bet)).round);
    expect(rounds.map((round) => round.nonce)).toEqual([0, 1, 2, 3, 4, 5]);
    for (const round of rounds)
      expect(round).toMatchObject({
        server_seed_hash: before.server_seed_hash,
        client_seed: 'my lucky seed',
        status: 'settled',
        mode: 'real',
      });

    // Not verifiable yet: the seed is still secret.
    const early = browser.data<{ is_revealed: boolean; server_seed: string | null }>(
      await browser.call('games.verifyRound', { round_id: rounds[0]!.id }, 'GET'),
    );
    expect(early).toMatchObject({ is_revealed: false, server_seed: null });

    const rotated = browser.data<SeedsView & { previous: { server_seed: string; server_seed_hash: string; rounds: number } }>(
      await browser.call('games.rotateSeeds', {}),
    );
    expect(rotated.previous.server_seed_hash).toBe(before.server_seed_hash);
    expect(rotated.previous.rounds).toBe(6);
    expect(sha256Hex(rotated.previous.server_seed)).toBe(before.server_seed_hash);
    expect(rotated.server_seed_hash).not.toBe(before.server_seed_hash);
    expect(rotated).toMatchObject({ client_seed: 'my lucky seed', nonce: 0 });

    const seeds = (nonce: number) =>
      new FairRng({ serverSeed: rotated.previous.server_seed, clientSeed: 'my lucky seed', nonce });
    const minor = (amount: string) => amountToMinor(amount);
    const recomputed = [
      playDice({ stakeMinor: minor('1.00'), direction: 'under', targetHundredths: 5000 }, seeds(0)),
      playDice({ stakeMinor: minor('0.50'), direction: 'over', targetHundredths: 2000 }, seeds(1)),
      playRoulette(
        [
          { kind: 'red', stakeMinor: minor('1.00') },
          { kind: 'straight', numbers: [17], stakeMinor: minor('0.20') },
          { kind: 'dozen', index: 2, stakeMinor: minor('0.30') },
        ] as RouletteBet[],
        seeds(2),
      ),
      playClassicSlot({ stakeMinor: minor('0.50') }, seeds(3)),
      playFruitsSlot({ stakeMinor: minor('0.40') }, seeds(4)),
      playCascadeSlot({ stakeMinor: minor('0.30') }, seeds(5)),
    ];
    recomputed.forEach((outcome, index) => {
      const round = rounds[index]!;
      expect(round.outcome).toEqual(asJson(outcome));
      expect(amountToMinor(round.payout.amount)).toBe(outcome.payoutMinor);
    });
    for (const round of rounds) {
      const verified = browser.data<{ is_verified: boolean; server_seed: string; recomputed: unknown }>(
        await browser.call('games.verifyRound', { round_id: round.id }, 'GET'),
      );
      expect(verified).toMatchObject({ is_verified: true, server_seed: rotated.previous.server_seed });
      expect(verified.recomputed).toEqual(round.outcome);
    }
    const next = browser.data<PlayAnswer>(
      await play(browser, DICE, { stake: '0.10', direction: 'under', target: '50.00' }),
    ).round;
    expect(next).toMatchObject({ server_seed_hash: rotated.server_seed_hash, nonce: 0 });
  });

  it('moves a dice round through the ledger: stake player main → house game under round:{id}:bet, a win back under round:{id}:win; the ledger stays sound', async () => {
    const { browser, uid } = await fundedPlayer('10.00');
    let staked = 0n;
    let paid = 0n;
    const rounds: RoundView[] = [];
    // Until both a loss and a win were seen (each about one in two).
    for (
      let i = 0;
      i < 30 &&
      !(rounds.some((round) => round.payout.amount === '0.00') && rounds.some((round) => round.payout.amount !== '0.00'));
      i++
    ) {
      const answer = browser.data<PlayAnswer>(await play(browser, DICE, { stake: '0.10', direction: 'under', target: '50.00' }));
      rounds.push(answer.round);
      staked += amountToMinor(answer.round.stake.amount);
      paid += amountToMinor(answer.round.payout.amount);
      expect(answer.balance?.amount).toBe(minorToAmount(1000n - staked + paid));
    }
    expect((await balances(uid)).main).toBe(1000n - staked + paid);
    const transfers = await transfersOf(uid);
    for (const round of rounds) {
      const bet = transfers.find((transfer) => transfer.idempotencyKey === `round:${round.id}:bet`);
      expect(bet).toMatchObject({ kind: 'game_bet', amountMinor: amountToMinor(round.stake.amount) });
      const win = transfers.find((transfer) => transfer.idempotencyKey === `round:${round.id}:win`);
      if (round.payout.amount === '0.00') expect(win).toBeUndefined();
      else expect(win).toMatchObject({ kind: 'game_win', amountMinor: amountToMinor(round.payout.amount) });
    }
    await expectSoundLedger();
  });

  it('plays a slot round with its free spins inside the round, paid through the ledger', async () => {
    const { browser, uid } = await fundedPlayer('5.00');
    const answer = browser.data<PlayAnswer>(await play(browser, CLASSIC, { stake: '1.00' }));
    const outcome = answer.round.outcome as { spins: unknown[]; payoutMinor: string };
    expect(outcome.spins.length).toBeGreaterThanOrEqual(1);
    expect(outcome.payoutMinor).toBe(String(amountToMinor(answer.round.payout.amount)));
    expect((await balances(uid)).main).toBe(500n - 100n + amountToMinor(answer.round.payout.amount));
    const cascade = browser.data<PlayAnswer>(await play(browser, CASCADE, { stake: '0.50' }));
    expect((cascade.round.outcome as { steps: unknown[] }).steps.length).toBeGreaterThanOrEqual(1);
    await expectSoundLedger();
  });

  it('demo mode moves only the fun balance (credit from the house fun issuer), and an anonymous visitor plays demo rounds recorded without money', async () => {
    const { browser, uid } = await fundedPlayer('0.00');
    const answer = browser.data<PlayAnswer>(
      await play(browser, DICE, { stake: '2.00', direction: 'over', target: '49.99' }, { mode: 'demo' }),
    );
    expect(answer.round.mode).toBe('demo');
    const after = await balances(uid);
    expect(after.main).toBe(0n);
    expect(after.fun).toBe(100_000n - 200n + amountToMinor(answer.round.payout.amount));
    expect(answer.balance?.amount).toBe((Number(after.fun) / 100).toFixed(2));
    const kinds = (await transfersOf(uid)).map((transfer) => transfer.kind);
    expect(kinds).toContain('demo_credit');
    expect(kinds).toContain('demo_bet');
    expect(kinds.some((kind) => kind.startsWith('game_'))).toBe(false);

    const transfersBefore = (await t.db.select({ n: sql<number>`count(*)::int` }).from(ledgerTransfers))[0]?.n;
    const visitor = new Browser(t);
    visitor.cookie = 'vid=anonymous-visitor-0001';
    const seeds = visitor.data<SeedsView>(await visitor.call('games.getSeeds', {}, 'GET'));
    const demo = visitor.data<PlayAnswer>(await play(visitor, CLASSIC, { stake: '1.00' }, { mode: 'demo' }));
    expect(demo).toMatchObject({ balance: null, round: { mode: 'demo', server_seed_hash: seeds.server_seed_hash, nonce: 0 } });
    const recall = visitor.data<RoundView[]>(await visitor.call('games.getRounds', { sysname: CLASSIC }, 'GET'));
    expect(recall.map((round) => round.id)).toEqual([demo.round.id]);
    expect((await t.db.select({ n: sql<number>`count(*)::int` }).from(ledgerTransfers))[0]?.n).toBe(transfersBefore);
    await expectSoundLedger();
  });

  it('refuses bad stakes and bets with InvalidParameterException naming the field, moving no money and recording no round', async () => {
    const { browser, uid } = await fundedPlayer('2.00');
    const dice = (stake: unknown, extra: Record<string, unknown> = {}) => ({
      stake,
      direction: 'under',
      target: '50.00',
      ...extra,
    });
    const cases: [unknown, string][] = [
      [dice('-1.00'), 'stake'],
      [dice('0.001'), 'stake'],
      [dice('0'), 'stake'],
      [dice(1e-7), 'stake'],
      [dice('abc'), 'stake'],
      [dice('0.05'), 'stake'], // below min_bet 0.10
      [dice('501.00'), 'stake'], // above max_bet 500.00
      [dice('5.00'), 'stake'], // above the balance
      [dice('1.00', { target: '99.50', direction: 'over' }), 'bet'], // chance below 1 %
      [dice('1.00', { direction: 'sideways' }), 'bet'],
      ['{not json', 'bet'],
      [{ bets: [{ kind: 'straight', numbers: [37], stake: '1.00' }] }, 'bet'],
    ];
    const seedsBefore = browser.data<SeedsView>(await browser.call('games.getSeeds', {}, 'GET'));
    for (const [bet, field] of cases) {
      const sysname = typeof bet === 'object' && bet !== null && 'bets' in bet ? ROULETTE : DICE;
      const answer = await play(browser, sysname, bet);
      expect(answer.json.error, JSON.stringify(bet)).toMatchObject({ type: 'InvalidParameterException', error_data: { field } });
    }
    expect((await balances(uid)).main).toBe(200n);
    expect((await transfersOf(uid)).filter((transfer) => transfer.kind.startsWith('game_'))).toEqual([]);
    expect(await roundCount(`user:${uid}`)).toBe(0);
    expect(browser.data<SeedsView>(await browser.call('games.getSeeds', {}, 'GET')).nonce).toBe(seedsBefore.nonce);

    // Nothing on the main balance: the player is asked to deposit (spec §8).
    const { browser: empty } = await fundedPlayer('0.00');
    expect((await play(empty, DICE, dice('1.00'))).json.error).toMatchObject({ type: 'UserNeedDepositException' });
    await expectSoundLedger();
  });

  it('returns the first round for a replayed request id and moves nothing; the same id with another bet is refused', async () => {
    const { browser, uid } = await fundedPlayer('5.00');
    const bet = { stake: '1.00', direction: 'under', target: '50.00' };
    const first = browser.data<PlayAnswer>(await play(browser, DICE, bet, { requestId: 'spin-1' }));
    const balanceAfterFirst = (await balances(uid)).main;
    const again = browser.data<PlayAnswer>(await play(browser, DICE, bet, { requestId: 'spin-1' }));
    expect(again).toMatchObject({ is_replay: true, round: first.round });
    expect((await balances(uid)).main).toBe(balanceAfterFirst);
    expect((await transfersOf(uid)).filter((transfer) => transfer.kind === 'game_bet')).toHaveLength(1);
    const other = await play(browser, DICE, { ...bet, stake: '2.00' }, { requestId: 'spin-1' });
    expect(other.json.error).toMatchObject({ type: 'InvalidParameterException', error_data: { field: 'request_id' } });
    expect(await roundCount(`user:${uid}`)).toBe(1);

    // Twins sent at once (a double click, a retry racing the first): one round, one stake.
    const twins = await Promise.all([
      play(browser, DICE, bet, { requestId: 'spin-2' }),
      play(browser, DICE, bet, { requestId: 'spin-2' }),
    ]);
    const [a, b] = twins.map((answer) => browser.data<PlayAnswer>(answer));
    expect(a?.round.id).toBe(b?.round.id);
    expect([a?.is_replay, b?.is_replay].sort()).toEqual([false, true]);
    expect((await transfersOf(uid)).filter((transfer) => transfer.kind === 'game_bet')).toHaveLength(2);
    expect(await roundCount(`user:${uid}`)).toBe(2);
    await expectSoundLedger();
  });

  it('never overdraws under concurrent plays: each round is paid from what the balance holds when it plays', async () => {
    const { browser, uid } = await fundedPlayer('3.00');
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => play(browser, DICE, { stake: '1.00', direction: 'under', target: '30.00' })),
    );
    const played = answers.filter((answer) => !answer.json.error).map((answer) => (answer.json.data as PlayAnswer).round);
    // Refused for funds: the stake above what is left, or nothing left at all (deposit first).
    for (const answer of answers.filter((item) => item.json.error)) {
      const error = answer.json.error!;
      if (error.type === 'UserNeedDepositException') continue;
      expect(error, JSON.stringify(error)).toMatchObject({ type: 'InvalidParameterException', error_data: { field: 'stake' } });
    }
    expect(played.length).toBeGreaterThanOrEqual(3);
    const main = (await balances(uid)).main;
    expect(main).toBeGreaterThanOrEqual(0n);
    expect(main).toBe(
      300n - played.reduce((sum, round) => sum + amountToMinor(round.stake.amount) - amountToMinor(round.payout.amount), 0n),
    );
    expect(new Set(played.map((round) => round.nonce)).size).toBe(played.length);
    await expectSoundLedger();
  });

  it('recalls the last 10 rounds of a game as they were played, newest first (game recall)', async () => {
    const { browser } = await fundedPlayer('10.00');
    const ids: string[] = [];
    for (let i = 0; i < 12; i++)
      ids.push(
        browser.data<PlayAnswer>(await play(browser, DICE, { stake: '0.10', direction: 'under', target: '50.00' })).round.id,
      );
    await play(browser, CLASSIC, { stake: '0.10' });
    const recall = browser.data<RoundView[]>(await browser.call('games.getRounds', { sysname: DICE }, 'GET'));
    expect(recall.map((round) => round.id)).toEqual(ids.slice(-10).reverse());
    expect(recall[0]).toMatchObject({
      sysname: DICE,
      engine: 'dice',
      status: 'settled',
      bet: { stake: '0.10', direction: 'under', target: '50.00' },
    });
    expect(recall[0]?.outcome).toHaveProperty('rollHundredths');
    expect(browser.data<RoundView[]>(await browser.call('games.getRounds', { sysname: DICE, count: '20' }, 'GET'))).toHaveLength(
      12,
    );
  });

  it('answers a sysname that does not exist, or a game not played here, with InvalidParameterException field sysname', async () => {
    const { browser } = await fundedPlayer('1.00');
    expect((await play(browser, 'no-such-game', { stake: '0.10' })).json.error).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'sysname' },
    });
    expect((await play(browser, 'crash-rocket', { stake: '0.10' })).json.error).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'sysname' },
    });
    expect((await browser.call('games.getRounds', { sysname: 'no-such-game' }, 'GET')).json.error).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'sysname' },
    });
  });

  it('refuses real play to an anonymous visitor (AuthorizationException) and to a self-excluded player (AccessDeniedException)', async () => {
    const visitor = new Browser(t);
    expect((await play(visitor, DICE, { stake: '1.00', direction: 'under', target: '50.00' })).json.error).toMatchObject({
      type: 'AuthorizationException',
    });

    const { uid } = await fundedPlayer('5.00');
    await t.services.responsibleGaming.exclude(uid, 'timeout', new Date(Date.now() + 86_400_000));
    const site = await t.services.sites.resolveSite('127.0.0.1');
    const attempt = t.services.gameRounds.play(
      { siteId, uid, visitorId: 'excluded-visitor-0001', locale: 'en', siteCurrency: site.defaultCurrency },
      {
        sysname: DICE,
        mode: 'real',
        bet: JSON.stringify({ stake: '1.00', direction: 'under', target: '50.00' }),
        requestId: 'excluded-1',
      },
    );
    await expect(attempt).rejects.toSatisfy(
      (error: unknown) => error instanceof ApiError && error.type === 'AccessDeniedException',
    );
    expect((await balances(uid)).main).toBe(500n);
    expect(await roundCount(`user:${uid}`)).toBe(0);
    const rows = await t.db
      .select()
      .from(gameRounds)
      .where(and(eq(gameRounds.siteId, siteId), eq(gameRounds.userId, uid)));
    expect(rows).toEqual([]);
  });
});
