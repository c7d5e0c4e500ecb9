/**
 * popups.get on a real database (spec §7 popups GET get (campaign popup); §4 "after login the
 * unseen-cashback popup and the campaign popup are queued"; §6 campaign popups apply to signed-in
 * players; issue 13 "triggers, audience anonymous or signed-in"): which popup applies to whom,
 * when, and by priority; null when none does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PopupView } from '#common/contract';
import { contentEntries, payments } from '../../db/schema';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { expectedEntry, sharedContent } from '../../../test/fixtures';
import { hostPlayer } from '../../../test/host-player';

const AURORA = '127.0.0.1';
const SPRINT = 'sprint.localhost';
const HOUR_MS = 3_600_000;

describe.each(testDatabaseKinds())('popups.get on %s', (kind) => {
  let t: TestApp;
  let sequence = 0;

  beforeAll(async () => {
    t = await createTestApp(kind);
    // Sprint gets popups of its own before anything is read (no cached list hides them).
    const popup = (slug: string, data: Record<string, unknown>, publishedAt: Date | null = new Date()) => ({
      siteId: 'sprint',
      collection: 'popups',
      locale: 'en',
      slug,
      data,
      publishedAt,
    });
    await t.db.insert(contentEntries).values([
      popup('after-login', { audience: 'signed_in', trigger: 'after_login', priority: 50, title: 'Welcome back' }),
      popup('everyone', { audience: 'all', trigger: 'any', priority: 1, title: 'For everyone' }),
      popup('over', {
        audience: 'all',
        priority: 99,
        title: 'Over',
        finished_at: new Date(Date.now() - HOUR_MS).toISOString(),
      }),
      popup('not-yet', {
        audience: 'all',
        priority: 99,
        title: 'Not yet',
        starts_at: new Date(Date.now() + HOUR_MS).toISOString(),
      }),
      popup('draft', { audience: 'all', priority: 99, title: 'Draft' }, null),
      popup('broken', { audience: 'robots', priority: 99, title: 'Broken' }),
    ]);
  });
  afterAll(() => t.close());

  async function deposited(who: Awaited<ReturnType<typeof hostPlayer>>) {
    await t.db.insert(payments).values({
      id: `popup-test-${sequence++}`,
      siteId: who.siteId,
      userId: who.uid,
      direction: 'deposit',
      method: 'card',
      methodType: 'card',
      provider: 'sandbox',
      amountMinor: 2_000n,
      currency: who.currency,
      status: 'success',
      origin: 'http://127.0.0.1',
    });
  }

  it('an anonymous visitor gets the first-visit popup on the first visit only', async () => {
    const expected = sharedContent<{ title: string; text: string }>('en', 'popups', 'first-visit');
    const first = await t.api('popups.get', { method: 'GET', params: { event: 'first_visit' } });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      sysname: 'first-visit',
      audience: 'anonymous',
      title: expected.title,
      text: expected.text,
    });
    expect((await t.api('popups.get', { method: 'GET' })).body.data).toBeNull();
  });

  it('§6: a signed-in player who has not deposited gets the welcome popup; after a deposit, none', async () => {
    const who = await hostPlayer(t, AURORA);
    const expected = sharedContent<{ title: string }>('en', 'popups', 'welcome-popup');
    const before = who.browser.data<PopupView>(await who.browser.call('popups.get', { event: 'login' }, 'GET'));
    expect(before).toMatchObject({
      sysname: 'welcome-popup',
      audience: 'signed_in',
      trigger: 'no_deposit',
      title: expected.title,
    });
    // The first-visit popup is for anonymous visitors only.
    expect(who.browser.data<PopupView>(await who.browser.call('popups.get', { event: 'first_visit' }, 'GET')).sysname).toBe(
      'welcome-popup',
    );
    await deposited(who);
    expect(who.browser.data(await who.browser.call('popups.get', { event: 'login' }, 'GET'))).toBeNull();
  });

  it('the highest priority that applies wins; finished, not started, draft and unreadable popups never show', async () => {
    const who = await hostPlayer(t, SPRINT);
    await deposited(who);
    const afterLogin = who.browser.data<PopupView>(await who.browser.call('popups.get', { event: 'login' }, 'GET'));
    expect(afterLogin).toMatchObject({ sysname: 'after-login', title: 'Welcome back' });
    const visit = who.browser.data<PopupView>(await who.browser.call('popups.get', {}, 'GET'));
    expect(visit.sysname).toBe('everyone');
    const anonymous = await t.api('popups.get', { method: 'GET', host: SPRINT });
    expect((anonymous.body.data as PopupView).sysname).toBe('everyone');
  });

  it("a site's own popup text is merged over the shared one (sprint pays 100% up to €300)", async () => {
    const who = await hostPlayer(t, SPRINT);
    const expected = expectedEntry('sprint', 'en', 'popups', 'welcome-popup') as { text: string };
    // Sprint's own after-login popup outranks it, so ask on a plain visit where only no_deposit and everyone apply.
    const popup = who.browser.data<PopupView>(await who.browser.call('popups.get', {}, 'GET'));
    expect(popup).toMatchObject({ sysname: 'welcome-popup', text: expected.text });
    expect(popup.text).toContain('300');
  });

  it('a bad event answers InvalidParameterException, never 500', async () => {
    const { status, body } = await t.api('popups.get', { method: 'GET', params: { event: 'midnight' } });
    expect(status).toBe(400);
    expect(body.error?.type).toBe('InvalidParameterException');
  });
});
