/**
 * The built-in identity-verification sandbox: the provider's hosted page (/kyc/sandbox), where a
 * tester approves or rejects the applicant, and our webhook (/kyc/webhook) that the sandbox
 * calls back with an HMAC-signed event, as a real provider does. The sandbox's pages act only for
 * a demo site whose verification provider is the sandbox; the webhook checks the demo's published
 * secret there, a real site's configured SECRET_{SITE}_KYC elsewhere. Without either it answers
 * 404 and changes nothing (issue 11: a player's own token once verified the player on any site).
 */
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { ApiError } from '#common/errors';
import type { AppEnv } from './app-env';
import { escapeXml } from './brand';
import {
  isSignatureValid,
  readAccessToken,
  signPayload,
  SIGNATURE_HEADER,
  type ReviewEvent,
  kycSandboxSecret,
  kycWebhookSecret,
} from '../modules/verification';
import { isSameOriginRequest } from './same-origin';

type Fetch = (request: Request) => Response | Promise<Response>;

const REJECT_REASONS = ['DOCUMENT_EXPIRED', 'DOCUMENT_UNREADABLE', 'SELFIE_MISMATCH', 'FRAUDULENT'] as const;
const DELIVERY_ATTEMPTS = 3;

/** A sandbox page; its style element and any inline script carry the answer's CSP nonce. */
function page(nonce: string, title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeXml(title)}</title><style nonce="${nonce}">body{font-family:system-ui,sans-serif;background:#f4f6fb;color:#1d2433;margin:0;padding:1.25rem}main{max-width:480px;margin:0 auto;background:#fff;border-radius:14px;padding:1.25rem;box-shadow:0 6px 24px #0001}label{display:grid;gap:.3rem;margin:.75rem 0;font-size:.9rem}input,select{height:40px;border:1px solid #cfd6e4;border-radius:8px;padding:0 .6rem;font:inherit}.row{display:flex;gap:.5rem;margin-top:1rem}button{flex:1;height:44px;border:0;border-radius:999px;font:inherit;font-weight:700;cursor:pointer}.ok{background:#16a34a;color:#fff}.no{background:#dc2626;color:#fff}small{color:#667085}</style></head><body><main>${body}</main></body></html>`;
}

async function deliver(fetchInternal: Fetch, origin: string, host: string, secret: string, event: ReviewEvent): Promise<boolean> {
  const body = JSON.stringify(event);
  for (let attempt = 1; attempt <= DELIVERY_ATTEMPTS; attempt++) {
    const response = await fetchInternal(
      new Request(`${origin}/kyc/webhook`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', host, [SIGNATURE_HEADER]: signPayload(secret, body) },
      }),
    );
    if (response.ok) return true;
    await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
  }
  return false;
}

export function createKycSandboxRoutes(fetchInternal: () => Fetch) {
  const routes = new Hono<{ Variables: AppEnv['Variables'] & { kycSecret: string } }>();

  routes.use('*', async (c, next) => {
    // The webhook is our end of any provider's protocol; everything else is the sandbox's page.
    const secret = c.req.path.endsWith('/webhook') ? kycWebhookSecret(c.var) : kycSandboxSecret(c.var);
    if (!secret) return c.json({ error: new ApiError('MethodNotFoundException', 'Not found').toBody() }, 404);
    c.set('kycSecret', secret);
    await next();
  });

  routes.get('/sandbox', async (c) => {
    const claims = readAccessToken(c.var.kycSecret, c.req.query('token') ?? '');
    if (!claims)
      return c.html(
        page(c.get('cspNonce'), 'Verification', '<h1>Link expired</h1><p>Start the verification again from your profile.</p>'),
        401,
      );
    const reasons = REJECT_REASONS.map((reason) => `<option value="${reason}">${reason}</option>`).join('');
    return c.html(
      page(
        c.get('cspNonce'),
        'Identity verification (sandbox)',
        `<h1>Identity verification</h1><p><small>Sandbox provider · applicant ${escapeXml(claims.applicantId)}</small></p>
<form method="post" action="/kyc/sandbox/decision">
<input type="hidden" name="token" value="${escapeXml(c.req.query('token') ?? '')}">
<label>Document type<select name="document_type"><option>ID_CARD</option><option>PASSPORT</option><option>DRIVERS</option></select></label>
<label>Document number<input name="document_number" required></label>
<label>Reason if rejected<select name="reason">${reasons}</select></label>
<div class="row"><button class="ok" name="decision" value="approve">Approve</button><button class="no" name="decision" value="reject">Reject</button></div>
</form>`,
      ),
    );
  });

  routes.post('/sandbox/decision', async (c) => {
    if (!isSameOriginRequest(c.req.raw)) return c.text('Cross-site request refused', 403);
    const form = await c.req.formData();
    const secret = c.var.kycSecret;
    const claims = readAccessToken(secret, String(form.get('token') ?? ''));
    if (!claims) return c.html(page(c.get('cspNonce'), 'Verification', '<h1>Link expired</h1>'), 401);
    const isApproved = form.get('decision') === 'approve';
    const reason = String(form.get('reason') ?? '');
    const url = new URL(c.req.url);
    const host = c.req.header('host') ?? url.host;
    const events: ReviewEvent[] = [
      { event_id: randomUUID(), type: 'applicantPending', applicant_id: claims.applicantId },
      {
        event_id: randomUUID(),
        type: 'applicantReviewed',
        applicant_id: claims.applicantId,
        review: isApproved
          ? { answer: 'GREEN' }
          : {
              answer: 'RED',
              reject_reason: (REJECT_REASONS as readonly string[]).includes(reason) ? reason : 'DOCUMENT_UNREADABLE',
            },
      },
    ];
    for (const event of events) await deliver(fetchInternal(), url.origin, host, secret, event);
    const status = isApproved ? 'approved' : 'rejected';
    return c.html(
      page(
        c.get('cspNonce'),
        'Verification',
        `<h1>${isApproved ? 'Approved' : 'Rejected'}</h1><p>You can close this window.</p><script nonce="${c.get('cspNonce')}">parent.postMessage({type:'kyc:done',status:'${status}'}, location.origin)</script>`,
      ),
    );
  });

  routes.post('/webhook', async (c) => {
    const raw = await c.req.text();
    if (!isSignatureValid(c.var.kycSecret, raw, c.req.header(SIGNATURE_HEADER))) return c.json({ error: 'bad signature' }, 401);
    let event: ReviewEvent;
    try {
      event = JSON.parse(raw) as ReviewEvent;
    } catch {
      return c.json({ error: 'bad body' }, 400);
    }
    if (typeof event.event_id !== 'string' || typeof event.applicant_id !== 'string') return c.json({ error: 'bad event' }, 400);
    const isApplied = await c.get('services').verification.applyEvent(event, c.var.site.id);
    return c.json({ ok: true, duplicate: !isApplied });
  });

  return routes;
}
