/**
 * Per-site jurisdiction settings for in-house play (issue 5: "Per-site jurisdiction settings cover
 * minimum spin duration and autoplay"): games.getSettings shows each demo site's rules from
 * content/sites.json, and the minimum spin duration is enforced by the game server on real slot
 * rounds, refusing a spin that comes too soon and moving no money for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { fundPlayer, hostPlayer, type HostBrowser } from '../../../test/host-player';
import { gamesJurisdiction, jurisdictionView } from './jurisdiction';

const SLOT = 'golden-reels';
const DICE = 'dice-roll';

describe('jurisdiction rules from site settings', () => {
  it('reads a site without a block as no minimum and autoplay allowed; clamps bad values; a site that forbids autoplay offers no round counts', () => {
    expect(gamesJurisdiction({})).toMatchObject({ minSpinDurationMs: 0, autoplay: { isAllowed: true, maxRounds: 100 } });
    expect(
      gamesJurisdiction({
        games_jurisdiction: { min_spin_duration_ms: -5, autoplay: { max_rounds: 20, round_options: [10, 50, 0] } },
      }),
    ).toMatchObject({ minSpinDurationMs: 0, autoplay: { maxRounds: 20, roundOptions: [10] } });
    expect(
      jurisdictionView(gamesJurisdiction({ games_jurisdiction: { autoplay: { is_allowed: false, max_rounds: 50 } } })).autoplay,
    ).toEqual({
      is_allowed: false,
      max_rounds: 0,
      round_options: [],
      is_loss_limit_required: false,
      is_single_win_limit_required: false,
    });
  });
});

describe.each(testDatabaseKinds())('jurisdiction settings on %s', (kind) => {
  let t: TestApp;
  let sequence = 0;

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const spin = (browser: HostBrowser, sysname: string, mode: 'real' | 'demo' = 'real') =>
    browser.call('games.play', {
      sysname,
      mode,
      bet: JSON.stringify(sysname === DICE ? { stake: '1.00', direction: 'under', target: '50.00' } : { stake: '1.00' }),
      request_id: `jurisdiction-${sequence++}`,
    });
  const siteRules = async (host: string) => gamesJurisdiction((await t.services.sites.resolveSite(host)).settings);

  it('games.getSettings answers each site its own rules from its settings', async () => {
    for (const host of ['127.0.0.1', 'lagoon.localhost', 'sprint.localhost']) {
      const answer = await t.api('games.getSettings', { host });
      expect(answer.body.data).toEqual(jurisdictionView(await siteRules(host)));
    }
    const lagoon = await siteRules('lagoon.localhost');
    expect(lagoon.minSpinDurationMs).toBeGreaterThan(0);
    expect(lagoon.autoplay.isAllowed).toBe(false);
  });

  it('a real slot spin sooner than the minimum spin duration is refused with TooManyRequestsException and retry_after_ms, and moves no money', async () => {
    const host = 'lagoon.localhost';
    const { minSpinDurationMs } = await siteRules(host);
    const who = await hostPlayer(t, host);
    await fundPlayer(t, who, '20.00');
    const first = await spin(who.browser, SLOT);
    expect(first.json.error).toBeUndefined();
    const afterFirst = await t.services.wallet.balances(who.siteId, who.uid, who.currency);
    const second = await spin(who.browser, SLOT);
    expect(second.json.error).toMatchObject({
      type: 'TooManyRequestsException',
      error_data: { reason: 'min_spin_duration', min_spin_duration_ms: minSpinDurationMs },
    });
    const retryAfterMs = Number(second.json.error?.error_data?.retry_after_ms);
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(retryAfterMs).toBeLessThanOrEqual(minSpinDurationMs);
    expect(await t.services.wallet.balances(who.siteId, who.uid, who.currency)).toEqual(afterFirst);
    // Waiting out the duration lets the next spin through.
    await new Promise((resolve) => setTimeout(resolve, retryAfterMs + 50));
    expect((await spin(who.browser, SLOT)).json.error).toBeUndefined();
  });

  it('the minimum spin duration holds for real slot rounds only: demo spins and dice rounds follow each other at once, and a site with none has no pause', async () => {
    const lagoon = await hostPlayer(t, 'lagoon.localhost');
    await fundPlayer(t, lagoon, '20.00');
    for (let i = 0; i < 2; i++) expect((await spin(lagoon.browser, SLOT, 'demo')).json.error).toBeUndefined();
    for (let i = 0; i < 2; i++) expect((await spin(lagoon.browser, DICE)).json.error).toBeUndefined();
    expect((await siteRules('127.0.0.1')).minSpinDurationMs).toBe(0);
    const aurora = await hostPlayer(t, '127.0.0.1');
    await fundPlayer(t, aurora, '20.00');
    for (let i = 0; i < 2; i++) expect((await spin(aurora.browser, SLOT)).json.error).toBeUndefined();
  });
});
