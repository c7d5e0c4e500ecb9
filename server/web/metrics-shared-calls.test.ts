/**
 * /metrics reports what the group-commit queues did (issue 12: rounds, ledger groups and provider
 * money share database calls; how many items a call carries is what the sharing saves, and an
 * operator needs to see it beside the request rates). The figures are the queues' own tallies.
 */
import { describe, expect, it } from 'vitest';
import { TEST_METRICS_TOKEN } from '../../test/api-harness';
import { testDatabaseKinds } from '../../test/databases';
import { fundPlayer } from '../../test/host-player';
import { signedInPlayer, type Browser } from '../../test/player';
import { sideBySide } from '../../test/side-by-side';
import { useSiteApp } from '../../test/site-app';

const DICE_BET = JSON.stringify({ stake: '1.00', direction: 'under', target: '50.00' });

describe.each(testDatabaseKinds())('/metrics of the shared calls on %s', (kind) => {
  const suite = useSiteApp(kind);
  let sequence = 0;

  const play = (browser: Browser) =>
    browser.call('games.play', { sysname: 'dice-roll', mode: 'real', bet: DICE_BET, request_id: `metrics-${sequence++}` });

  /**
   * A funded player whose seed pair this process already knows, so the next round shares a call at
   * once: the first round opens the pair alone, the second learns it (it comes back stale once).
   */
  async function knownPlayer() {
    const player = await signedInPlayer(suite.t);
    await fundPlayer(suite.t, { uid: player.uid, siteId: suite.siteId, currency: suite.currency }, '20.00');
    for (let round = 0; round < 2; round++) player.browser.data(await play(player.browser));
    return player;
  }

  /** Each series' value by its queue label. */
  async function scraped(name: string): Promise<Map<string, number>> {
    const answer = await suite.t.request('/metrics', { headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
    expect(answer.status).toBe(200);
    const text = await answer.text();
    const series = new Map<string, number>();
    for (const match of text.matchAll(new RegExp(`^${name}\\{queue="([a-z]+)"\\} (\\d+)$`, 'gm'))) {
      series.set(match[1]!, Number(match[2]));
    }
    return series;
  }

  it('counts the calls of the shared rounds and the rounds they carried, as the queue tallied them (issue 12, spec §7 games.play)', async () => {
    const players = await Promise.all(Array.from({ length: 4 }, () => knownPlayer()));
    const { gameRounds } = suite.t.services;
    const callsBefore = (await scraped('shared_calls_total')).get('rounds');
    const itemsBefore = (await scraped('shared_call_items_total')).get('rounds');
    expect(callsBefore).toBe(gameRounds.sharedRoundStats().calls);
    expect(itemsBefore).toBe(gameRounds.sharedRoundStats().rounds);

    await sideBySide(gameRounds.holdSharedRounds(), players.length, () => players.map(({ browser }) => play(browser)));

    const stats = gameRounds.sharedRoundStats();
    const calls = await scraped('shared_calls_total');
    const items = await scraped('shared_call_items_total');
    expect(calls.get('rounds')).toBe(stats.calls);
    expect(items.get('rounds')).toBe(stats.rounds);
    // The four rounds went in one call: one call more, four items more.
    expect({ calls: calls.get('rounds')! - callsBefore!, items: items.get('rounds')! - itemsBefore! }).toEqual({
      calls: 1,
      items: 4,
    });
    expect((await scraped('shared_calls_failed_total')).get('rounds')).toBe(stats.failedCalls);
  });

  it("reports the ledger's group commit as the wallet tallied it, and no queue this process does not run", async () => {
    const { wallet, providerWallet } = suite.t.services;
    const ledger = wallet.groupCommitStats();
    expect((await scraped('shared_calls_total')).get('ledger')).toBe(ledger.calls);
    expect((await scraped('shared_call_items_total')).get('ledger')).toBe(ledger.groups);
    // The ledger's queue counts no failed calls of its own: its series has none rather than a made-up zero.
    expect((await scraped('shared_calls_failed_total')).has('ledger')).toBe(false);
    const provider = providerWallet.sharedMoneyStats();
    expect((await scraped('shared_calls_total')).get('provider')).toBe(provider?.calls);
  });
});
