import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { registeredPlayer } from '../../../test/player';
import { createAccessToken, readAccessToken, signPayload, SIGNATURE_HEADER, type ReviewEvent } from './service';

const SECRET = 'sandbox-only-not-a-secret-aurora';

describe('verification access token', () => {
  it('is readable with the secret until it expires, and not with another secret', () => {
    const token = createAccessToken(SECRET, 'app_1', 'withdrawal', 1_000);
    expect(readAccessToken(SECRET, token, 2_000)).toEqual({ applicantId: 'app_1', externalActionId: 'withdrawal' });
    expect(readAccessToken('other', token, 2_000)).toBeUndefined();
    expect(readAccessToken(SECRET, token, 1_000 + 21 * 60 * 1000)).toBeUndefined();
    expect(readAccessToken(SECRET, `${token.split('.')[0]}x.${token.split('.')[1]}`, 2_000)).toBeUndefined();
  });
});

describe.each(testDatabaseKinds())('identity verification with the sandbox provider on %s', (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(kind);
  });
  afterAll(() => app?.close());

  async function startVerification() {
    const player = await registeredPlayer(app);
    expect((await player.browser.call('account.setUserOnVerification')).json.data).toBe(1);
    const applicant = player.browser.data<{ applicant_id: string }>(await player.browser.call('verification.createApplicant'));
    const again = player.browser.data<{ applicant_id: string }>(await player.browser.call('verification.createApplicant'));
    expect(again.applicant_id).toBe(applicant.applicant_id);
    const access = player.browser.data<{ token: string; url: string }>(
      await player.browser.call('verification.getAccessToken', { externalActionId: 'kyc' }),
    );
    return { ...player, applicantId: applicant.applicant_id, access };
  }

  async function decide(token: string, decision: 'approve' | 'reject') {
    const response = await app.request('/kyc/sandbox/decision', {
      method: 'POST',
      body: new URLSearchParams({ token, decision, document_number: 'X1', reason: 'DOCUMENT_EXPIRED' }),
    });
    expect(response.status).toBe(200);
    return response.text();
  }

  const info = async (player: Awaited<ReturnType<typeof startVerification>>) =>
    player.browser.data<{ is_on_verification: boolean; is_verified: boolean; is_kyc_block_enabled: boolean }>(
      await player.browser.call('account.getInfo', {}, 'GET'),
    );

  it('setUserOnVerification marks the account on verification (spec §3 flags)', async () => {
    const player = await startVerification();
    expect(await info(player)).toMatchObject({ is_on_verification: true, is_verified: false });
    const page = await app.request(player.access.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(player.applicantId);
  });

  it('an approval reaches us by signed webhook and verifies the account', async () => {
    const player = await startVerification();
    expect(await decide(player.access.token, 'approve')).toContain("status:'approved'");
    expect(await info(player)).toMatchObject({ is_on_verification: false, is_verified: true, is_kyc_block_enabled: false });
  });

  it('a rejection leaves the account unverified with the KYC block on', async () => {
    const player = await startVerification();
    await decide(player.access.token, 'reject');
    expect(await info(player)).toMatchObject({ is_on_verification: false, is_verified: false, is_kyc_block_enabled: true });
  });

  it('the webhook refuses a forged signature and applies a replayed event once; a late pending does not undo a decision', async () => {
    const player = await startVerification();
    const reviewed: ReviewEvent = {
      event_id: `evt-${Date.now()}`,
      type: 'applicantReviewed',
      applicant_id: player.applicantId,
      review: { answer: 'GREEN' },
    };
    const body = JSON.stringify(reviewed);
    const forged = await app.request('/kyc/webhook', {
      method: 'POST',
      body,
      headers: { [SIGNATURE_HEADER]: signPayload('wrong-secret', body) },
    });
    expect(forged.status).toBe(401);
    // The KYC provider's server is not handed a visitor cookie (a machine route has no visitor).
    expect(forged.headers.get('set-cookie')).toBeNull();
    expect(await info(player)).toMatchObject({ is_verified: false });
    const send = (payload: ReviewEvent) => {
      const raw = JSON.stringify(payload);
      return app
        .request('/kyc/webhook', { method: 'POST', body: raw, headers: { [SIGNATURE_HEADER]: signPayload(SECRET, raw) } })
        .then((r) => r.json() as Promise<{ ok: boolean; duplicate: boolean }>);
    };
    expect(await send(reviewed)).toEqual({ ok: true, duplicate: false });
    expect(await send(reviewed)).toEqual({ ok: true, duplicate: true });
    await send({ event_id: `late-${Date.now()}`, type: 'applicantPending', applicant_id: player.applicantId });
    expect(await info(player)).toMatchObject({ is_verified: true, is_on_verification: false });
  });

  it('the sandbox page refuses an expired or forged token', async () => {
    const response = await app.request(
      `/kyc/sandbox?token=${encodeURIComponent(createAccessToken('wrong', 'app_x', undefined))}`,
    );
    expect(response.status).toBe(401);
  });
});
