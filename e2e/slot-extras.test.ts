/**
 * What a slot offers beside the spin button, in the browser (issue 5): autoplay within the site's
 * jurisdiction settings (a run of spins that ends after its count or when the player stops it),
 * and an awarded freespin pack played in the slot it belongs to (no stake taken, one spin used,
 * a wager-free win paid to the main balance).
 */
import { describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { closeContext, useBrowser, waitForHydration } from './browser';
import { apiCall, signedUpPlayer } from './page-api';
import { inLocale, tr, type Locale } from './site-facts';

const POLL = { timeout: 30_000 };
const SLOT = 'golden-reels';

describe('slot autoplay and freespins', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;
  const backofficeToken = inject('backofficeToken');

  const newPlayer = (locale: Locale): Promise<{ context: BrowserContext; page: Page; uid: number }> =>
    signedUpPlayer(browser, locale, { addressPrefix: '10.82' });

  async function openSlot(page: Page, locale: Locale, hash = ''): Promise<Frame> {
    await page.goto(`${base}${inLocale(`/game/${SLOT}`, locale)}${hash}`);
    await waitForHydration(page);
    const frameElement = page.locator(`iframe[data-game-frame="${hash === '#real' ? 'real' : 'demo'}"]`);
    await frameElement.waitFor();
    const frame = await (await frameElement.elementHandle())!.contentFrame();
    await waitForHydration(frame!);
    return frame!;
  }

  const roundCount = async (page: Page, mode: 'real' | 'demo') =>
    ((await apiCall<{ mode: string }[]>(page, 'GET', 'games.getRounds', { sysname: SLOT, count: '100' })).data ?? []).filter(
      (round) => round.mode === mode,
    ).length;

  for (const locale of ['en', 'it'] as const) {
    it(`runs autoplay for the chosen number of spins, each one a round on the server (${locale}; issue 5 jurisdiction autoplay)`, async () => {
      const { context, page } = await newPlayer(locale);
      const frame = await openSlot(page, locale);
      const settings = await apiCall<{ autoplay: { is_allowed: boolean; round_options: number[] } }>(
        page,
        'GET',
        'games.getSettings',
      );
      expect(settings.data?.autoplay.is_allowed).toBe(true);
      const rounds = settings.data?.autoplay.round_options[0] ?? 10;
      await frame.click('[data-autoplay] > summary');
      expect(await frame.locator('[data-autoplay] > summary').textContent()).toBe(tr(locale, 'gamePlay.autoplay.title'));
      await frame.selectOption('select[name="autoplay-rounds"]', String(rounds));
      const before = await roundCount(page, 'demo');
      await frame.click('[data-action="start-autoplay"]');
      await expect.poll(() => frame.locator('[data-autoplay-stop]').getAttribute('data-autoplay-stop'), POLL).toBe('done');
      expect(await roundCount(page, 'demo')).toBe(before + rounds);
      await closeContext(context);
    });
  }

  it('stops autoplay when the player asks, before the planned spins (issue 5 autoplay)', async () => {
    const { context, page } = await newPlayer('en');
    const frame = await openSlot(page, 'en');
    await frame.click('[data-autoplay] > summary');
    // The form loads when autoplay is first opened (slot-panels.tsx): its choices are read once it is there.
    await frame.locator('select[name="autoplay-rounds"]').waitFor();
    const options = await frame
      .locator('select[name="autoplay-rounds"] option')
      .evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('value'))));
    const planned = Math.max(...options);
    await frame.selectOption('select[name="autoplay-rounds"]', String(planned));
    await frame.click('[data-action="start-autoplay"]');
    await expect
      .poll(async () => Number(await frame.locator('[data-autoplay-progress]').getAttribute('data-autoplay-progress')), POLL)
      .toBeGreaterThanOrEqual(2);
    await frame.click('[data-action="stop-autoplay"]');
    await expect.poll(() => frame.locator('[data-autoplay-stop]').getAttribute('data-autoplay-stop'), POLL).toBe('stopped');
    expect(await roundCount(page, 'demo')).toBeLessThan(planned);
    await closeContext(context);
  });

  it('plays an awarded freespin pack in its slot: one spin used, no stake taken, the win paid to the main balance (issue 5 freespins)', async () => {
    const { context, page, uid } = await newPlayer('en');
    const award = await page.request.post(`${base}/backoffice/freespins`, {
      headers: { authorization: `Bearer ${backofficeToken}`, 'content-type': 'application/json' },
      data: {
        user_id: uid,
        sysname: SLOT,
        count: 3,
        stake: '0.20',
        valid_days: 7,
        wagering_multiplier: 0,
        award_key: `e2e-${uid}`,
        reason: 'browser test',
      },
    });
    expect(award.status()).toBe(201);

    // With nothing on the balance the real game would ask for a deposit first (spec §3
    // canAccessSlotWithZeroBalance false); free spins for this game are enough to play.
    const frame = await openSlot(page, 'en', '#real');
    expect(await page.locator('[data-deposit-first]').count()).toBe(0);
    const pack = frame.locator('[data-freespin-pack]');
    await expect.poll(() => pack.getAttribute('data-remaining'), POLL).toBe('3');
    const before = Number(await frame.locator('[data-game-balance]').getAttribute('data-game-balance'));
    await frame.click('[data-action="play-freespin"]');
    await frame.locator('[data-freespin-round]').waitFor();
    await expect.poll(() => pack.getAttribute('data-remaining'), POLL).toBe('2');
    const roundId = await frame.locator('[data-freespin-round]').getAttribute('data-round');
    const rounds = await apiCall<{ id: string; payout: { amount: string } }[]>(page, 'GET', 'games.getRounds', {
      sysname: SLOT,
      count: '10',
    });
    const payout = Number(rounds.data?.find((round) => round.id === roundId)?.payout.amount);
    expect(Number(await frame.locator('[data-game-balance]').getAttribute('data-game-balance'))).toBeCloseTo(before + payout, 2);
    await closeContext(context);
  });
});
