/**
 * Game history and its CSV export through the product API and the download route on a real
 * database (issue 5 "History and export"; spec §7 games.getHistory, createhistoryexportrequest,
 * gethistoryexportrequest). Rounds are real dice rounds played through games.play; what the
 * history and the file show is compared with the round rows the game server wrote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { minorToAmount } from '#common/money';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { fundPlayer, hostPlayer, type HostBrowser } from '../../../test/host-player';
import { createJobHandlers } from '../../job-handlers';
import { gameRounds, liveBets, liveRounds } from '../../db/schema';
import { csvCell, parseCsv } from './csv';
import { CSV_HEADER, type ExportView, type HistoryItem } from './service';

const DICE = 'dice-roll';
/** The demo site with exports on (aurora) and the one with them off (lagoon), content/sites.json. */
const EXPORT_HOST = '127.0.0.1';
const NO_EXPORT_HOST = 'lagoon.localhost';

describe('csv cells (export file safety)', () => {
  it('neutralises text that a spreadsheet would read as a formula, keeps plain negative numbers, quotes separators', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('-1.50')).toBe('-1.50');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(parseCsv(`${['x', 'a,b', 'say "hi"'].map(csvCell).join(',')}\r\n`)).toEqual([['x', 'a,b', 'say "hi"']]);
  });
});

describe.each(testDatabaseKinds())('game history and export on %s', (kind) => {
  let t: TestApp;
  let sequence = 0;
  /** The live tables' clock: the test moves it past a round's result to settle the bets in it. */
  let liveNow = Date.now();

  beforeAll(async () => {
    t = await createTestApp(kind, { services: { liveGames: { clock: () => liveNow } } });
  });
  afterAll(() => t.close());

  const playRound = async (browser: HostBrowser, mode: 'real' | 'demo', stake = '1.00') =>
    browser.data(
      await browser.call('games.play', {
        sysname: DICE,
        mode,
        bet: JSON.stringify({ stake, direction: 'under', target: '50.00' }),
        request_id: `history-${sequence++}`,
      }),
    );
  const runJobs = () => t.services.jobs.drain(createJobHandlers(t.services, async () => new Response('ok')));
  const realRoundsOf = async (uid: number) =>
    (await t.db.select().from(gameRounds).where(eq(gameRounds.userId, uid)).orderBy(desc(gameRounds.id))).filter(
      (row) => row.mode === 'real',
    );

  async function playerWithRounds(realRounds: number, demoRounds: number) {
    const who = await hostPlayer(t, EXPORT_HOST);
    await fundPlayer(t, who, '50.00');
    for (let i = 0; i < realRounds; i++) await playRound(who.browser, 'real', i % 2 === 0 ? '1.00' : '2.00');
    for (let i = 0; i < demoRounds; i++) await playRound(who.browser, 'demo');
    return who;
  }

  it('games.getHistory lists the real-money rounds newest first with stake, payout and net, paged by offset and count; demo rounds stay out', async () => {
    const { browser, uid } = await playerWithRounds(5, 2);
    const rows = await realRoundsOf(uid);
    expect(rows).toHaveLength(5);
    const first = browser.data<{ items: HistoryItem[]; total: number }>(
      await browser.call('games.getHistory', { offset: '0', count: '3' }, 'GET'),
    );
    expect(first.total).toBe(5);
    expect(first.items.map((item) => item.id)).toEqual(rows.slice(0, 3).map((row) => String(row.id)));
    const second = browser.data<{ items: HistoryItem[]; total: number }>(
      await browser.call('games.getHistory', { offset: '3', count: '3' }, 'GET'),
    );
    expect(second.items.map((item) => item.id)).toEqual(rows.slice(3).map((row) => String(row.id)));
    for (const [index, item] of [...first.items, ...second.items].entries()) {
      const row = rows[index];
      if (!row) throw new Error('missing row');
      expect(item).toMatchObject({
        sysname: DICE,
        status: 'settled',
        is_freespin: false,
        stake: { amount: minorToAmount(row.stakeMinor) },
        payout: { amount: minorToAmount(row.payoutMinor) },
        net: { amount: minorToAmount(row.payoutMinor - row.stakeMinor) },
      });
      expect(item.game_name).not.toBe('');
    }
  });

  /** Opens a betting round at every live table (the tables' last rounds settled first). */
  async function openLiveRounds() {
    liveNow += 24 * 60 * 60_000;
    await t.services.liveGames.advanceAll();
  }
  const placeLiveBet = async (browser: HostBrowser, sysname: string, bet: unknown) =>
    browser.data<{ bet: { id: string } }>(
      await browser.call('games.placeLiveBet', {
        sysname,
        mode: 'real',
        bet: JSON.stringify(bet),
        request_id: `history-live-${sequence++}`,
      }),
    ).bet.id;

  it('issue 15: crash and live-roulette bets are in games.getHistory and the CSV export with their round, stake, payout, status and time, merged newest first with in-house rounds and paged by offset', async () => {
    const who = await hostPlayer(t, EXPORT_HOST);
    await fundPlayer(t, who, '50.00');
    const { browser } = who;
    await openLiveRounds();
    await playRound(browser, 'real', '1.00');
    const rouletteBet = await placeLiveBet(browser, 'live-roulette', { bets: [{ kind: 'red', stake: '2.00' }] });
    await playRound(browser, 'real', '2.00');
    const crashBet = await placeLiveBet(browser, 'crash-rocket', { stake: '3.00', auto_cash_out: '1.50' });
    // The rounds' results come out: every live bet is settled as won or lost.
    await openLiveRounds();

    const rounds = await realRoundsOf(who.uid);
    const bets = await t.db
      .select({ bet: liveBets, round: liveRounds })
      .from(liveBets)
      .innerJoin(liveRounds, eq(liveRounds.id, liveBets.roundId))
      .where(eq(liveBets.userId, who.uid));
    const liveRow = (id: string) => {
      const found = bets.find((row) => String(row.bet.id) === id);
      if (!found) throw new Error(`no live bet ${id}`);
      return found;
    };
    const crash = liveRow(crashBet);
    const roulette = liveRow(rouletteBet);
    expect([crash.bet.status, roulette.bet.status].every((status) => status === 'won' || status === 'lost')).toBe(true);

    const page = async (offset: number, count: number) =>
      browser.data<{ items: HistoryItem[]; total: number }>(
        await browser.call('games.getHistory', { offset: String(offset), count: String(count) }, 'GET'),
      );
    const first = await page(0, 3);
    const second = await page(3, 3);
    expect(first.total).toBe(4);
    const items = [...first.items, ...second.items];
    // Newest first: the crash bet, the second dice round, the roulette bet, the first dice round.
    expect(items.map((item) => [item.kind, item.round_id])).toEqual([
      ['live', String(crash.round.id)],
      ['round', String(rounds[0]?.id)],
      ['live', String(roulette.round.id)],
      ['round', String(rounds[1]?.id)],
    ]);
    expect(new Set(items.map((item) => item.id)).size).toBe(4);
    for (const { bet, round } of [crash, roulette]) {
      const item = items.find((entry) => entry.kind === 'live' && entry.round_id === String(round.id));
      expect(item).toMatchObject({
        sysname: round.sysname,
        engine: round.engine,
        status: bet.status,
        stake: { amount: minorToAmount(bet.stakeMinor), currency: bet.currency },
        payout: { amount: minorToAmount(bet.payoutMinor) },
        net: { amount: minorToAmount(bet.payoutMinor - bet.stakeMinor) },
        is_freespin: false,
        created_at: bet.createdAt.toISOString(),
        settled_at: bet.settledAt?.toISOString(),
      });
    }
    expect(
      browser.data<{ total: number }>(await browser.call('games.getHistory', { sysname: 'crash-rocket' }, 'GET')).total,
    ).toBe(1);

    const requested = browser.data<ExportView>(await browser.call('games.createhistoryexportrequest', {}));
    await runJobs();
    const ready = browser.data<ExportView>(await browser.call('games.gethistoryexportrequest', { id: requested.id }, 'GET'));
    expect(ready).toMatchObject({ status: 'ready', row_count: 4 });
    const [header, ...lines] = parseCsv((await (await browser.fetch(ready.download_url ?? '')).text()).replace(/^\uFEFF/, ''));
    expect(header).toEqual([...CSV_HEADER]);
    const cells = lines.map((line) => Object.fromEntries(CSV_HEADER.map((name, column) => [name, line[column]])));
    expect(cells.map((line) => [line.kind, line.round_id])).toEqual(items.map((item) => [item.kind, item.round_id]));
    expect(cells[0]).toMatchObject({
      kind: 'live',
      bet_id: crashBet,
      sysname: 'crash-rocket',
      status: crash.bet.status,
      stake: minorToAmount(crash.bet.stakeMinor),
      payout: minorToAmount(crash.bet.payoutMinor),
      server_seed_hash: crash.round.serverSeedHash,
      nonce: String(crash.round.roundNo),
    });
  });

  it('games.getHistory filters by game and date, and refuses bad filters with InvalidParameterException; an anonymous visitor must sign in', async () => {
    const { browser } = await playerWithRounds(2, 0);
    const today = new Date().toISOString().slice(0, 10);
    expect(
      browser.data<{ total: number }>(
        await browser.call('games.getHistory', { sysname: DICE, date_from: today, date_to: today }, 'GET'),
      ).total,
    ).toBe(2);
    expect(browser.data<{ total: number }>(await browser.call('games.getHistory', { sysname: 'mines-field' }, 'GET')).total).toBe(
      0,
    );
    expect(browser.data<{ total: number }>(await browser.call('games.getHistory', { date_to: '2020-01-01' }, 'GET')).total).toBe(
      0,
    );
    expect((await browser.call('games.getHistory', { date_from: today, date_to: '2020-01-01' }, 'GET')).json.error).toMatchObject(
      { type: 'InvalidParameterException', error_data: { field: 'date_to' } },
    );
    expect((await browser.call('games.getHistory', { date_from: 'yesterday' }, 'GET')).json.error).toMatchObject({
      type: 'InvalidParameterException',
    });
    const anonymous = await t.api('games.getHistory');
    expect(anonymous.body.error?.type).toBe('AuthorizationException');
  });

  it('an export request is made by the job queue into a CSV that only its owner downloads, with one line per real round matching the rounds played', async () => {
    const { browser, uid } = await playerWithRounds(3, 1);
    const requested = browser.data<ExportView>(await browser.call('games.createhistoryexportrequest', {}));
    expect(requested).toMatchObject({ status: 'pending', download_url: null });
    // Asking again while it is being made gives the same request.
    expect(browser.data<ExportView>(await browser.call('games.createhistoryexportrequest', {})).id).toBe(requested.id);
    await runJobs();
    const ready = browser.data<ExportView>(await browser.call('games.gethistoryexportrequest', { id: requested.id }, 'GET'));
    expect(ready).toMatchObject({ status: 'ready', row_count: 3, is_truncated: false });
    expect(browser.data<ExportView>(await browser.call('games.gethistoryexportrequest', {}, 'GET')).id).toBe(requested.id);

    const response = await browser.fetch(ready.download_url ?? '');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toContain('attachment');
    const [header, ...lines] = parseCsv((await response.text()).replace(/^\uFEFF/, ''));
    expect(header).toEqual([...CSV_HEADER]);
    const rows = await realRoundsOf(uid);
    expect(lines.map((line) => line[0])).toEqual(rows.map((row) => String(row.id)));
    for (const [index, line] of lines.entries()) {
      const row = rows[index];
      if (!row) throw new Error('missing row');
      const cells = Object.fromEntries(CSV_HEADER.map((name, column) => [name, line[column]]));
      expect(cells).toMatchObject({
        sysname: DICE,
        currency: row.currency,
        stake: minorToAmount(row.stakeMinor),
        payout: minorToAmount(row.payoutMinor),
        net: minorToAmount(row.payoutMinor - row.stakeMinor),
        server_seed_hash: row.serverSeedHash,
        nonce: String(row.nonce),
      });
    }

    // Another player and an anonymous visitor get nothing; an unknown id looks the same as another's.
    const other = await hostPlayer(t, EXPORT_HOST);
    expect((await other.browser.fetch(ready.download_url ?? '')).status).toBe(404);
    expect((await other.browser.call('games.gethistoryexportrequest', { id: requested.id }, 'GET')).json.error).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'id' },
    });
    expect((await t.request(ready.download_url ?? '')).status).toBe(401);
  });

  it('a site with is_game_history_export_enabled false refuses export requests with AccessDeniedException and makes nothing', async () => {
    const who = await hostPlayer(t, NO_EXPORT_HOST);
    const answer = await who.browser.call('games.createhistoryexportrequest', {});
    expect(answer.json.error).toMatchObject({ type: 'AccessDeniedException' });
    expect(who.browser.data(await who.browser.call('games.gethistoryexportrequest', {}, 'GET'))).toBeNull();
  });
});
