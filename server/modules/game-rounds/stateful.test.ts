/**
 * Mines and blackjack as stateful provably fair rounds through the product API on a real
 * database (issue 5: real play, actions out of turn, replayed actions, bets above balance, the
 * recovery of open rounds; architecture §5 money on the ledger, §6 provably fair games).
 *
 * Deals are arranged, never scripted: the test reads the player's (secret) server seed from the
 * database and picks a client seed under which the next nonce deals what the rule needs, then
 * sets it through games.setClientSeed as a player could.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like, sql } from 'drizzle-orm';
import { cardValue, deal, createShoe, handTotal, type BlackjackState } from '#common/games/blackjack';
import { FairRng, type RoundSeeds } from '#common/games/fair';
import { minesPayout, startMines } from '#common/games/mines';
import { amountToMinor, minorToAmount } from '#common/money';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { fundPlayer } from '../../../test/host-player';
import { Browser, signedInPlayer, type ApiAnswer } from '../../../test/player';
import { createJobHandlers } from '../../job-handlers';
import { createServices } from '../../services';
import { checkLedger } from '../wallet';
import { ledgerTransfers } from '../../db/schema';
import type { RoundView } from './service';
import { fairSeeds, gameRounds } from './tables';

interface Answer {
  round: RoundView;
  game: Record<string, unknown> & {
    status?: string;
    phase?: string;
    opened?: number[];
    mines?: number[] | null;
    actions?: string[];
    hands?: Array<{ cards: string[]; stakeMinor: string }>;
    dealer?: Array<string | null>;
  };
  is_replay: boolean;
  balance: { amount: string; currency: string } | null;
}

const MINES = 'mines-field';
const BLACKJACK = 'blackjack-classic';
const HOUR = 3_600_000;

describe.each(testDatabaseKinds())('mines and blackjack rounds on %s', (kind) => {
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

  async function fundedPlayer(amount: string) {
    const signedIn = await signedInPlayer(t);
    if (amount !== '0.00') await fundPlayer(t, { uid: signedIn.uid, siteId, currency }, amount);
    return signedIn;
  }

  const start = (browser: Browser, sysname: string, bet: unknown, options: { mode?: 'real' | 'demo'; requestId?: string } = {}) =>
    browser.call('games.start', {
      sysname,
      mode: options.mode ?? 'real',
      bet: JSON.stringify(bet),
      request_id: options.requestId ?? `start-${sequence++}`,
    });
  const act = (browser: Browser, roundId: string, action: string, params?: unknown, requestId = `act-${sequence++}`) =>
    browser.call('games.act', {
      round_id: roundId,
      action,
      ...(params === undefined ? {} : { params: JSON.stringify(params) }),
      request_id: requestId,
    });
  const mainBalance = async (uid: number) => minorToAmount((await t.services.wallet.balances(siteId, uid, currency)).main);
  const transfersOf = async (uid: number) => t.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.userId, uid));
  const keysOf = async (uid: number, roundId: string) =>
    (await transfersOf(uid))
      .flatMap((row) => (row.idempotencyKey?.startsWith(`round:${roundId}:`) ? [row.idempotencyKey] : []))
      .sort();
  const errorOf = (answer: ApiAnswer) => answer.json.error;

  /** Picks a client seed under which the player's next round satisfies `wanted`, and sets it. */
  async function arrange(browser: Browser, uid: number, wanted: (seeds: RoundSeeds) => boolean): Promise<RoundSeeds> {
    browser.data(await browser.call('games.getSeeds', {}, 'GET'));
    const [seed] = await t.db
      .select()
      .from(fairSeeds)
      .where(and(eq(fairSeeds.ownerKey, `user:${uid}`), sql`${fairSeeds.revealedAt} IS NULL`));
    if (!seed) throw new Error('no active seed pair');
    for (let i = 0; i < 20_000; i++) {
      const seeds = { serverSeed: seed.serverSeed, clientSeed: `arranged-${i}`, nonce: seed.nextNonce };
      if (wanted(seeds)) {
        browser.data(await browser.call('games.setClientSeed', { client_seed: seeds.clientSeed }));
        return seeds;
      }
    }
    throw new Error('no client seed gives the wanted deal');
  }
  const dealOf = (seeds: RoundSeeds, stakeMinor = 100n): BlackjackState => deal({ stakeMinor }, createShoe(new FairRng(seeds)));
  const minesOf = (seeds: RoundSeeds, mineCount: number) => startMines({ stakeMinor: 100n, mineCount }, new FairRng(seeds)).mines;

  it('mines for real: the stake moves at the start (round:{id}:bet), the field stays hidden, a cash-out pays round:{id}:win once, and the round verifies after rotation (provably fair)', async () => {
    const { browser, uid } = await fundedPlayer('50.00');
    const seeds = await arrange(browser, uid, () => true);
    const mines = minesOf(seeds, 3);
    const safe = [...Array(25).keys()].filter((cell) => !mines.includes(cell));

    const opened = browser.data<Answer>(await start(browser, MINES, { stake: '2.00', mines: 3 }));
    expect(opened.round).toMatchObject({ status: 'open', engine: 'mines', nonce: seeds.nonce, client_seed: seeds.clientSeed });
    expect(opened.game.mines).toBeNull();
    expect(opened.balance?.amount).toBe('48.00');

    const first = browser.data<Answer>(await act(browser, opened.round.id, 'reveal', { cell: safe[0] }));
    expect(first.game).toMatchObject({ status: 'playing', opened: [safe[0]], mines: null });
    browser.data<Answer>(await act(browser, opened.round.id, 'reveal', { cell: safe[1] }));
    const cashed = browser.data<Answer>(await act(browser, opened.round.id, 'cashout'));
    const expected = minesPayout(200n, 3, 2);
    expect(cashed.round).toMatchObject({ status: 'settled', payout: { amount: minorToAmount(expected) } });
    expect(cashed.game.mines).toEqual(mines);
    expect(cashed.balance?.amount).toBe(minorToAmount(amountToMinor('48.00') + expected));
    expect(await keysOf(uid, opened.round.id)).toEqual([`round:${opened.round.id}:bet`, `round:${opened.round.id}:win`]);

    browser.data(await browser.call('games.rotateSeeds', {}));
    const verified = browser.data<{ is_verified: boolean; is_revealed: boolean }>(
      await browser.call('games.verifyRound', { round_id: opened.round.id }, 'GET'),
    );
    expect(verified).toMatchObject({ is_revealed: true, is_verified: true });
    await expectSoundLedger();
  });

  it('mines: a mine loses the stake with no win transfer; actions out of turn (cash out before any reveal, reveal after the end, a cell twice) are refused with InvalidParameterException and move no money', async () => {
    const { browser, uid } = await fundedPlayer('10.00');
    const seeds = await arrange(browser, uid, () => true);
    const mines = minesOf(seeds, 5);
    const safe = [...Array(25).keys()].filter((cell) => !mines.includes(cell));
    const opened = browser.data<Answer>(await start(browser, MINES, { stake: '1.00', mines: 5 }));
    const id = opened.round.id;

    expect(errorOf(await act(browser, id, 'cashout'))).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'action' },
    });
    browser.data(await act(browser, id, 'reveal', { cell: safe[0] }));
    expect(errorOf(await act(browser, id, 'reveal', { cell: safe[0] }))).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'action' },
    });
    expect(errorOf(await act(browser, id, 'reveal', { cell: 25 }))).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'params' },
    });
    expect(errorOf(await act(browser, id, 'hit'))).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'action' },
    });
    const lost = browser.data<Answer>(await act(browser, id, 'reveal', { cell: mines[0] }));
    expect(lost.round).toMatchObject({ status: 'settled', payout: { amount: '0.00' } });
    expect(lost.game).toMatchObject({ status: 'lost', mines });

    const before = (await transfersOf(uid)).length;
    expect(errorOf(await act(browser, id, 'reveal', { cell: safe[1] }))).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'action' },
    });
    expect(errorOf(await act(browser, id, 'cashout'))).toMatchObject({ type: 'InvalidParameterException' });
    expect((await transfersOf(uid)).length).toBe(before);
    expect(await mainBalance(uid)).toBe('9.00');
    expect(await keysOf(uid, id)).toEqual([`round:${id}:bet`]);
  });

  it('blackjack double: the extra stake moves as round:{id}:bet:2, exactly one card follows, the round settles and pays round:{id}:win once', async () => {
    const { browser, uid } = await fundedPlayer('20.00');
    // A hard 10 or 11 against a low up card, no blackjack anywhere: a textbook double.
    await arrange(browser, uid, (seeds) => {
      const state = dealOf(seeds);
      const total = handTotal(state.hands[0]!.cards);
      return (
        state.phase === 'player' &&
        !total.isSoft &&
        (total.total === 10 || total.total === 11) &&
        cardValue(state.dealer[0]!) <= 6
      );
    });
    const opened = browser.data<Answer>(await start(browser, BLACKJACK, { stake: '2.00' }));
    expect(opened.game.phase).toBe('player');
    expect(opened.game.dealer?.[1]).toBeNull();
    expect(opened.game.actions).toContain('double');
    const doubled = browser.data<Answer>(await act(browser, opened.round.id, 'double'));
    expect(doubled.round).toMatchObject({ status: 'settled', stake: { amount: '4.00' } });
    expect(doubled.game.hands?.[0]?.cards).toHaveLength(3);
    expect(doubled.game.dealer?.every((card) => card !== null)).toBe(true);
    const payout = amountToMinor(doubled.round.payout.amount);
    expect([0n, 400n, 800n]).toContain(payout);
    const keys = [
      `round:${opened.round.id}:bet`,
      `round:${opened.round.id}:bet:2`,
      ...(payout > 0n ? [`round:${opened.round.id}:win`] : []),
    ].sort();
    expect(await keysOf(uid, opened.round.id)).toEqual(keys);
    expect(await mainBalance(uid)).toBe(minorToAmount(2_000n - 400n + payout));
    // Hit after the round is over: refused, nothing moves.
    expect(errorOf(await act(browser, opened.round.id, 'hit'))).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'action' },
    });
    expect(await keysOf(uid, opened.round.id)).toEqual(keys);
    await expectSoundLedger();
  });

  it('blackjack split: a pair splits into two hands for a second stake (round:{id}:bet:2), each hand plays in turn, hit after stand is refused', async () => {
    const { browser, uid } = await fundedPlayer('20.00');
    await arrange(browser, uid, (seeds) => {
      const state = dealOf(seeds);
      const [a, b] = state.hands[0]!.cards;
      return state.phase === 'player' && cardValue(a!) === cardValue(b!) && cardValue(a!) !== 1;
    });
    const opened = browser.data<Answer>(await start(browser, BLACKJACK, { stake: '1.00' }));
    expect(opened.game.actions).toContain('split');
    let answer = browser.data<Answer>(await act(browser, opened.round.id, 'split'));
    expect(answer.game.hands).toHaveLength(2);
    expect(answer.round.stake.amount).toBe('2.00');
    expect(answer.game.actions).not.toContain('split');
    // Stand on each hand that still plays; the dealer then plays and both hands settle.
    while (answer.round.status === 'open') answer = browser.data<Answer>(await act(browser, opened.round.id, 'stand'));
    expect(errorOf(await act(browser, opened.round.id, 'hit'))).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'action' },
    });
    const payout = amountToMinor(answer.round.payout.amount);
    expect(await keysOf(uid, opened.round.id)).toEqual(
      [
        `round:${opened.round.id}:bet`,
        `round:${opened.round.id}:bet:2`,
        ...(payout > 0n ? [`round:${opened.round.id}:win`] : []),
      ].sort(),
    );
    expect(await mainBalance(uid)).toBe(minorToAmount(2_000n - 200n + payout));
  });

  it('blackjack insurance: offered under a dealer ace, it costs half the bet (round:{id}:bet:2); hit before the insurance answer is out of turn', async () => {
    const { browser, uid } = await fundedPlayer('20.00');
    const seeds = await arrange(browser, uid, (candidate) => dealOf(candidate).phase === 'insurance');
    const opened = browser.data<Answer>(await start(browser, BLACKJACK, { stake: '2.00' }));
    expect(opened.game).toMatchObject({ phase: 'insurance', actions: ['insurance', 'no-insurance'] });
    expect(errorOf(await act(browser, opened.round.id, 'hit'))).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'action' },
    });
    let answer = browser.data<Answer>(await act(browser, opened.round.id, 'insurance'));
    expect(answer.round.stake.amount).toBe('3.00');
    while (answer.round.status === 'open') answer = browser.data<Answer>(await act(browser, opened.round.id, 'stand'));
    const dealt = dealOf(seeds, 200n);
    const isDealerBlackjack = handTotal(dealt.dealer).total === 21;
    expect((answer.game.result as { isDealerBlackjack: boolean }).isDealerBlackjack).toBe(isDealerBlackjack);
    if (isDealerBlackjack) expect((answer.game.result as { insurancePayoutMinor: string }).insurancePayoutMinor).toBe('300');
    const payout = amountToMinor(answer.round.payout.amount);
    expect(await mainBalance(uid)).toBe(minorToAmount(2_000n - 300n + payout));
    expect((await keysOf(uid, opened.round.id)).filter((key) => key.includes(':bet'))).toEqual([
      `round:${opened.round.id}:bet`,
      `round:${opened.round.id}:bet:2`,
    ]);
  });

  it('a replayed action request id returns the first result and moves nothing; the same id for another action is refused; a replayed start returns the same round', async () => {
    const { browser, uid } = await fundedPlayer('10.00');
    const seeds = await arrange(browser, uid, () => true);
    const mines = minesOf(seeds, 2);
    const safe = [...Array(25).keys()].filter((cell) => !mines.includes(cell));
    const opened = browser.data<Answer>(await start(browser, MINES, { stake: '1.00', mines: 2 }, { requestId: 'start-once' }));
    const again = browser.data<Answer>(await start(browser, MINES, { stake: '1.00', mines: 2 }, { requestId: 'start-once' }));
    expect(again).toMatchObject({ is_replay: true, round: { id: opened.round.id } });
    expect(errorOf(await start(browser, MINES, { stake: '2.00', mines: 2 }, { requestId: 'start-once' }))).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'request_id' },
    });

    const first = browser.data<Answer>(await act(browser, opened.round.id, 'reveal', { cell: safe[0] }, 'reveal-once'));
    browser.data(await act(browser, opened.round.id, 'reveal', { cell: safe[1] }));
    const replay = browser.data<Answer>(await act(browser, opened.round.id, 'reveal', { cell: safe[0] }, 'reveal-once'));
    expect(replay.is_replay).toBe(true);
    expect(replay.game).toEqual(first.game);
    expect(errorOf(await act(browser, opened.round.id, 'reveal', { cell: safe[2] }, 'reveal-once'))).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'request_id' },
    });

    const cashed = browser.data<Answer>(await act(browser, opened.round.id, 'cashout', undefined, 'cash-once'));
    const transfers = (await transfersOf(uid)).length;
    const replayedCash = browser.data<Answer>(await act(browser, opened.round.id, 'cashout', undefined, 'cash-once'));
    expect(replayedCash).toMatchObject({ is_replay: true, round: { status: 'settled', payout: cashed.round.payout } });
    expect((await transfersOf(uid)).length).toBe(transfers);
    expect(await mainBalance(uid)).toBe(minorToAmount(1_000n - 100n + minesPayout(100n, 2, 2)));
  });

  it("an action on another player's round is refused like an unknown round, and moves no money", async () => {
    const owner = await fundedPlayer('10.00');
    const intruder = await fundedPlayer('10.00');
    const opened = owner.browser.data<Answer>(await start(owner.browser, BLACKJACK, { stake: '1.00' }));
    const transfers = (await transfersOf(owner.uid)).length + (await transfersOf(intruder.uid)).length;
    for (const action of ['stand', 'hit', 'no-insurance'])
      expect(errorOf(await act(intruder.browser, opened.round.id, action))).toMatchObject({
        type: 'InvalidParameterException',
        error_data: { field: 'round_id' },
      });
    expect(errorOf(await act(intruder.browser, '999999999', 'stand'))).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'round_id' },
    });
    expect((await transfersOf(owner.uid)).length + (await transfersOf(intruder.uid)).length).toBe(transfers);
    expect(
      intruder.browser.data<{ round: null }>(await intruder.browser.call('games.getOpenRound', { sysname: BLACKJACK }, 'GET'))
        .round,
    ).toBeNull();
  });

  it('one open round per player and game: a second start is refused pointing at the open round, which getOpenRound resumes; the seeds cannot be rotated under it', async () => {
    const { browser, uid } = await fundedPlayer('10.00');
    await arrange(browser, uid, (seeds) => dealOf(seeds).phase === 'player');
    const opened = browser.data<Answer>(await start(browser, BLACKJACK, { stake: '1.00' }));
    const second = errorOf(await start(browser, BLACKJACK, { stake: '1.00' }));
    expect(second).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'sysname', round_id: opened.round.id },
    });
    expect(await mainBalance(uid)).toBe('9.00');
    const resumed = browser.data<Answer>(await browser.call('games.getOpenRound', { sysname: BLACKJACK }, 'GET'));
    expect(resumed.round.id).toBe(opened.round.id);
    expect(resumed.game).toEqual(opened.game);
    expect(resumed.balance?.amount).toBe('9.00');
    expect(errorOf(await browser.call('games.rotateSeeds', {}))).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { round_id: opened.round.id },
    });
    // Another game is not blocked by it.
    browser.data(await start(browser, MINES, { stake: '1.00', mines: 1 }));
  });

  it('bets above balance: UserNeedDepositException on an empty balance, InvalidParameterException (stake) above it, a double above it is refused; limits from game_params; nothing moves', async () => {
    const empty = await fundedPlayer('0.00');
    expect(errorOf(await start(empty.browser, MINES, { stake: '1.00', mines: 3 }))).toMatchObject({
      type: 'UserNeedDepositException',
    });
    const { browser, uid } = await fundedPlayer('3.00');
    expect(errorOf(await start(browser, MINES, { stake: '5.00', mines: 3 }))).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'stake' },
    });
    expect(errorOf(await start(browser, MINES, { stake: '0.05', mines: 3 }))).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'stake' },
    });
    expect(errorOf(await start(browser, BLACKJACK, { stake: '501.00' }))).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'stake' },
    });
    for (const bet of [
      { stake: '-1.00', mines: 3 },
      { stake: '1.005', mines: 3 },
      { stake: '1.00', mines: 25 },
      { stake: '1.00' },
    ]) {
      expect(errorOf(await start(browser, MINES, bet))).toMatchObject({ type: 'InvalidParameterException' });
    }
    expect(errorOf(await start(browser, 'dice-roll', { stake: '1.00' }))).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'sysname' },
    });
    expect(await transfersOf(uid)).toHaveLength(1);

    await arrange(browser, uid, (seeds) => {
      const state = dealOf(seeds);
      return state.phase === 'player' && state.hands[0]!.cards.length === 2;
    });
    const opened = browser.data<Answer>(await start(browser, BLACKJACK, { stake: '2.00' }));
    expect(errorOf(await act(browser, opened.round.id, 'double'))).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'action' },
    });
    expect(await keysOf(uid, opened.round.id)).toEqual([`round:${opened.round.id}:bet`]);
    expect(await mainBalance(uid)).toBe('1.00');
    const stood = browser.data<Answer>(await act(browser, opened.round.id, 'stand'));
    expect(stood.round.status).toBe('settled');
  });

  it('an open round survives a process restart: new services over the same database resume it with getOpenRound and play it on', async () => {
    const { browser, uid } = await fundedPlayer('10.00');
    const seeds = await arrange(browser, uid, () => true);
    const mines = minesOf(seeds, 3);
    const safe = [...Array(25).keys()].filter((cell) => !mines.includes(cell));
    const opened = browser.data<Answer>(await start(browser, MINES, { stake: '1.00', mines: 3 }));
    browser.data(await act(browser, opened.round.id, 'reveal', { cell: safe[0] }));

    const restarted = createServices(t.db, { notify: t.database.handle.notify });
    const who = { siteId, uid, visitorId: 'restart-visitor', locale: 'en' as const, siteCurrency: currency };
    const open = await restarted.statefulRounds.getOpenRound(who, MINES);
    expect(open.round?.id).toBe(opened.round.id);
    expect(open.game).toMatchObject({ opened: [safe[0]], status: 'playing', mines: null });
    const cashed = await restarted.statefulRounds.act(who, {
      roundId: Number(opened.round.id),
      action: 'cashout',
      params: {},
      requestId: 'after-restart',
    });
    expect(cashed.round).toMatchObject({ status: 'settled', payout: { amount: minorToAmount(minesPayout(100n, 3, 1)) } });
  });

  it('the scheduled job settles rounds left open longer than the configured time by the fair rule: blackjack stands, mines cashes out the revealed gems or refunds when none; the rounds still verify', async () => {
    const { browser, uid } = await fundedPlayer('20.00');
    const seeds = await arrange(browser, uid, (candidate) => dealOf(candidate).phase === 'player');
    const blackjack = browser.data<Answer>(await start(browser, BLACKJACK, { stake: '2.00' }));
    const minesSeeds = await arrange(browser, uid, () => true);
    const mines = minesOf(minesSeeds, 3);
    const safe = [...Array(25).keys()].filter((cell) => !mines.includes(cell));
    const cashOut = browser.data<Answer>(await start(browser, MINES, { stake: '1.00', mines: 3 }));
    browser.data(await act(browser, cashOut.round.id, 'reveal', { cell: safe[0] }));
    browser.data(await act(browser, cashOut.round.id, 'reveal', { cell: safe[1] }));
    const other = await fundedPlayer('5.00');
    const refund = other.browser.data<Answer>(await start(other.browser, MINES, { stake: '1.00', mines: 3 }));
    const fresh = await fundedPlayer('5.00');
    const recent = fresh.browser.data<Answer>(await start(fresh.browser, MINES, { stake: '1.00', mines: 3 }));

    // The three rounds were left a day and an hour ago; the fourth is recent and stays open.
    const longAgo = new Date(Date.now() - 25 * HOUR);
    for (const id of [blackjack.round.id, cashOut.round.id, refund.round.id]) {
      await t.db.execute(
        sql`UPDATE game_rounds SET created_at = ${longAgo.toISOString()}::timestamptz, state = jsonb_set(state, '{touched_at}', to_jsonb(${longAgo.toISOString()}::text)) WHERE id = ${Number(id)}`,
      );
    }
    expect(t.services.statefulRounds.abandonAfterMs).toBe(24 * HOUR);
    await t.services.jobs.enqueue('games.settleAbandoned', {}, { key: `games.settleAbandoned:test-${kind}` });
    const run = await t.services.jobs.drain(createJobHandlers(t.services, async () => new Response('ok')));
    expect(run.errors).toEqual([]);

    const rowOf = async (id: string) =>
      (
        await t.db
          .select()
          .from(gameRounds)
          .where(eq(gameRounds.id, Number(id)))
      )[0]!;
    // Blackjack: the player stands, the dealer plays by the house rule.
    let stood = dealOf(seeds, 200n);
    const { act: playBlackjack, resumeShoe } = await import('#common/games/blackjack');
    while (stood.phase !== 'finished')
      stood = playBlackjack(
        stood,
        stood.phase === 'insurance' ? 'no-insurance' : 'stand',
        resumeShoe(new FairRng(seeds), stood.cardsDrawn),
      );
    const blackjackRow = await rowOf(blackjack.round.id);
    expect(blackjackRow).toMatchObject({
      status: 'settled',
      payoutMinor: stood.result!.payoutMinor,
      outcome: { settled_by: 'timeout' },
    });
    expect(await rowOf(cashOut.round.id)).toMatchObject({ status: 'settled', payoutMinor: minesPayout(100n, 3, 2) });
    expect(await rowOf(refund.round.id)).toMatchObject({
      status: 'settled',
      payoutMinor: 100n,
      outcome: { settled_by: 'timeout' },
    });
    expect(await mainBalance(other.uid)).toBe('5.00');
    expect((await rowOf(recent.round.id)).status).toBe('open');
    expect(await mainBalance(uid)).toBe(minorToAmount(2_000n - 300n + stood.result!.payoutMinor + minesPayout(100n, 3, 2)));

    // A late action on a settled round is refused and moves nothing; the rounds verify.
    expect(errorOf(await act(browser, blackjack.round.id, 'hit'))).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'action' },
    });
    browser.data(await browser.call('games.rotateSeeds', {}));
    for (const id of [blackjack.round.id, cashOut.round.id]) {
      expect(
        browser.data<{ is_verified: boolean }>(await browser.call('games.verifyRound', { round_id: id }, 'GET')).is_verified,
      ).toBe(true);
    }
    // A second run finds nothing left to settle.
    expect(await t.services.statefulRounds.settleAbandoned(new Date())).toBe(0);
    await expectSoundLedger();
  });

  it('demo mode: a signed-in player plays on the fun balance (main untouched), an anonymous visitor plays mines and blackjack with no money moved', async () => {
    const { browser, uid } = await fundedPlayer('5.00');
    const demo = browser.data<Answer>(await start(browser, BLACKJACK, { stake: '10.00' }, { mode: 'demo' }));
    expect(demo.round.mode).toBe('demo');
    expect(await mainBalance(uid)).toBe('5.00');
    expect(demo.balance?.amount).toBe(
      minorToAmount(100_000n - 1_000n + amountToMinor(demo.round.status === 'settled' ? demo.round.payout.amount : '0.00')),
    );

    const visitor = new Browser(t);
    visitor.cookie = 'vid=stateful-visitor-0001';
    expect(errorOf(await start(visitor, MINES, { stake: '1.00', mines: 3 }))).toMatchObject({ type: 'AuthorizationException' });
    const opened = visitor.data<Answer>(await start(visitor, MINES, { stake: '1.00', mines: 24 }, { mode: 'demo' }));
    expect(opened.balance).toBeNull();
    const played = visitor.data<Answer>(await act(visitor, opened.round.id, 'reveal', { cell: 0 }));
    expect(played.round.status).toBe('settled');
    const [{ n }] = (await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(ledgerTransfers)
      .where(like(ledgerTransfers.idempotencyKey, `round:${opened.round.id}:%`))) as [{ n: number }];
    expect(n).toBe(0);
    await expectSoundLedger();
  });
});
