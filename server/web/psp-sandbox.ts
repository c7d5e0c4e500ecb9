/**
 * The sandbox PSP's hosted pages (/psp/sandbox/pay/{providerRef}): a card form with a 3-D
 * Secure step, an instant-payment QR code, and bank-transfer details, in the locale the payment
 * was created with. Each ends by sending the browser to the merchant's return address for the
 * outcome. That redirect proves nothing: the merchant learns the outcome from the signed
 * webhook alone, which the sandbox queues at the same moment.
 */
import { Hono, type Context } from 'hono';
import QRCode from 'qrcode';
import { formatMoney, money } from '#common/money';
import { isLocale, type Locale } from '#common/locale';
import { safeRedirectTarget } from '#common/address';
import { ApiError } from '#common/errors';
import { isPspSandboxSite } from '../modules/sites';
import type { AppEnv } from './app-env';
import { escapeXml } from './brand';
import { isSameOriginRequest } from './same-origin';
import { siteOrigin } from './site-origin';
import { hasSandboxText, sandboxText, type TextKey } from './psp-sandbox-text';
import {
  isFinalSandboxStatus,
  SANDBOX_PAGES_PATH,
  toProviderStatus,
  type SandboxPayment,
  pixPayload,
  CHALLENGE_CODE,
  TEST_CARDS,
  type CardField,
  type CardInput,
  type CardProblem,
} from '../modules/payments';

/** The sandbox's own receiving account, shown on the bank-transfer page (a published example IBAN). */
const SANDBOX_BANK = { beneficiary: 'Sandbox PSP Ltd', iban: 'GB33 BUKB 2020 1555 5555 55', bic: 'BUKBGB22' };
const SANDBOX_PIX_KEY = 'pix@sandbox-psp.example';
/** How often the waiting pages reload to look for the outcome, and how long a result shows. */
const POLL_S = 2;
const RESULT_REDIRECT_S = 3;

const STYLE = `:root{color-scheme:dark}*{box-sizing:border-box}body{margin:0;min-height:100vh;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:#0d1220;color:#e9edf7;padding:1.25rem}
main{max-width:460px;margin:0 auto;background:#161d31;border:1px solid #27304a;border-radius:16px;padding:1.5rem;box-shadow:0 10px 40px #0008}
header{display:flex;justify-content:space-between;align-items:center;gap:1rem;margin-bottom:1rem}.brand{font-weight:800;letter-spacing:.02em;color:#a5b4ff;white-space:nowrap}
.badge{font-size:.75rem;font-weight:700;background:#3b2f0b;color:#ffd666;border:1px solid #6b5714;border-radius:999px;padding:.15rem .6rem}
h1{font-size:1.35rem;margin:.25rem 0 1rem}.summary{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;background:#0f1528;border-radius:12px;padding:.75rem 1rem;margin-bottom:1.25rem}
.summary dt{color:#9aa5c4}.summary dd{margin:0;text-align:right;font-weight:700}
label{display:grid;gap:.35rem;margin:.9rem 0;font-size:.95rem;color:#cfd6ea}.row{display:grid;grid-template-columns:1fr 1fr;gap:.75rem}.row label{margin:.4rem 0}
input{width:100%;min-width:0;height:46px;border:1px solid #36405e;border-radius:10px;padding:0 .8rem;font:inherit;background:#0f1528;color:#f4f6fc}
input:focus{outline:2px solid #7c8cff;outline-offset:1px}input[aria-invalid=true]{border-color:#ff7a7a}
.error{color:#ff9b9b;font-size:.88rem}.alert{background:#3a1418;border:1px solid #7a2a33;color:#ffc2c2;border-radius:10px;padding:.6rem .8rem}
button{width:100%;height:48px;border:0;border-radius:999px;font:inherit;font-weight:700;cursor:pointer;margin-top:1rem;background:#6d5efc;color:#fff}
button.secondary{background:#26304d;color:#e9edf7}button.link{background:none;color:#a5b4ff;text-decoration:underline;height:auto;font-weight:500;margin-top:1.25rem}
a{color:#a5b4ff}table{width:100%;border-collapse:collapse;font-size:.88rem;margin-top:.5rem}td{padding:.35rem .25rem;border-top:1px solid #27304a;vertical-align:top}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;word-break:break-all}td.mono{white-space:nowrap;word-break:normal;padding-right:.75rem}.hint{color:#9aa5c4;font-size:.88rem}
.qr{background:#fff;border-radius:12px;padding:.75rem;width:220px;margin:0 auto 1rem}.qr svg{display:block;width:100%;height:auto}
textarea{width:100%;min-height:88px;border:1px solid #36405e;border-radius:10px;background:#0f1528;color:#f4f6fc;font:.8rem/1.4 ui-monospace,monospace;padding:.6rem}
.status{display:flex;gap:.6rem;align-items:center;background:#0f1528;border-radius:12px;padding:.75rem 1rem}.dot{width:10px;height:10px;border-radius:50%;background:#ffd666;flex:none}
.note{background:#2a2410;border:1px solid #6b5714;color:#ffe08a;border-radius:10px;padding:.6rem .8rem}.ok{color:#7ee2a8}.no{color:#ff9b9b}`;

interface View {
  locale: Locale;
  merchant: string;
  /** The merchant site's origin: the only place the browser is sent back to. */
  origin: string;
  payment: SandboxPayment;
  /** The answer's Content-Security-Policy nonce, for the page's style element. */
  nonce: string;
}

const localeOf = (payment: SandboxPayment): Locale => (isLocale(payment.locale) ? payment.locale : 'en');
const amountOf = (payment: SandboxPayment) => formatMoney(money(payment.amountMinor, payment.currency));
const payPath = (payment: SandboxPayment, action = '') => `${SANDBOX_PAGES_PATH}/pay/${payment.id}${action}`;

function t(view: Pick<View, 'locale'>, key: TextKey, values: Record<string, string> = {}): string {
  return escapeXml(sandboxText(view.locale, key, values));
}

function layout(locale: Locale, title: string, body: string, nonce: string, refresh?: string): string {
  const meta = refresh ? `<meta http-equiv="refresh" content="${escapeXml(refresh)}">` : '';
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">${meta}<title>${escapeXml(title)}</title><style nonce="${nonce}">${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

function frame(view: View, title: TextKey, body: string, options: { refresh?: string; canCancel?: boolean } = {}): string {
  const header = `<header><span class="brand">${t(view, 'page.brand')}</span><span class="badge">${t(view, 'page.testMode')}</span></header>
<h1>${t(view, title)}</h1>
<dl class="summary"><dt>${t(view, 'page.payTo')}</dt><dd>${escapeXml(view.merchant)}</dd><dt>${t(view, 'page.amount')}</dt><dd data-amount>${escapeXml(amountOf(view.payment))}</dd></dl>`;
  const footer = options.canCancel
    ? `<form method="post" action="${payPath(view.payment, '/cancel')}"><button class="link" type="submit" data-action="cancel">${t(view, 'page.cancel', { merchant: view.merchant })}</button></form>`
    : '';
  return layout(view.locale, sandboxText(view.locale, title), header + body + footer, view.nonce, options.refresh);
}

function cardErrorText(view: View, field: CardField, problem: CardProblem): string {
  const key = `card.error.${field}.${problem}`;
  return t(view, hasSandboxText(key) ? key : (`card.error.${field}.invalid` as TextKey));
}

function cardPage(view: View, values: Partial<CardInput> = {}, problems: Partial<Record<CardField, CardProblem>> = {}): string {
  const input = (field: CardField, label: TextKey, attributes: string) => {
    const problem = problems[field];
    const error = problem
      ? `<span class="error" id="${field}-error" role="alert">${cardErrorText(view, field, problem)}</span>`
      : '';
    // The CVC is never echoed back into the page.
    const value = field === 'cvc' ? '' : (values[field] ?? '');
    return `<label>${t(view, label)}<input name="${field}" value="${escapeXml(value)}" ${attributes}${problem ? ` aria-invalid="true" aria-describedby="${field}-error"` : ''}>${error}</label>`;
  };
  const cards = TEST_CARDS.map(
    (card) =>
      `<tr><td class="mono">${card.number.replace(/(\d{4})(?=\d)/g, '$1 ')}</td><td>${t(view, `card.outcome.${card.outcome}`)}</td></tr>`,
  ).join('');
  const summary = Object.keys(problems).length ? `<p class="alert" role="alert">${t(view, 'card.error.summary')}</p>` : '';
  return frame(
    view,
    'card.title',
    `${summary}<form method="post" action="${payPath(view.payment, '/card')}" novalidate>
${input('number', 'card.number', 'inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required')}
${input('holder', 'card.holder', 'autocomplete="cc-name" required')}
<div class="row">${input('expiry', 'card.expiry', 'inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" required')}${input('cvc', 'card.cvc', 'inputmode="numeric" autocomplete="cc-csc" placeholder="123" required')}</div>
<button type="submit" data-action="pay">${t(view, 'card.pay', { amount: amountOf(view.payment) })}</button>
</form>
<h2 class="hint">${t(view, 'card.testCards')}</h2><table data-test-cards>${cards}</table><p class="hint">${t(view, 'card.testHint')}</p>`,
    { canCancel: true },
  );
}

function challengePage(view: View, hasWrongCode = false): string {
  return frame(
    view,
    'challenge.title',
    `<p>${t(view, 'challenge.text', { amount: amountOf(view.payment), last4: view.payment.cardLast4 ?? '····' })}</p>
<p class="note" data-challenge-code="${CHALLENGE_CODE}">${t(view, 'challenge.hint', { code: CHALLENGE_CODE })}</p>
<form method="post" action="${payPath(view.payment, '/3ds')}"><label>${t(view, 'challenge.code')}<input name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="8" required${hasWrongCode ? ' aria-invalid="true"' : ''}></label>
<button type="submit" data-action="confirm-code">${t(view, 'challenge.submit')}</button></form>`,
    { canCancel: true },
  );
}

async function instantPage(view: View): Promise<string> {
  const { payment } = view;
  if (payment.status === 'processing') {
    return frame(
      view,
      'instant.title',
      `<p class="status" role="status"><span class="dot"></span>${t(view, 'instant.waiting')}</p>`,
      { refresh: String(POLL_S) },
    );
  }
  const payload = pixPayload({
    key: SANDBOX_PIX_KEY,
    merchantName: view.merchant,
    amountMinor: payment.amountMinor,
    currency: payment.currency,
    txid: payment.id,
  });
  const qr = await QRCode.toString(payload, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return frame(
    view,
    'instant.title',
    `<p>${t(view, 'instant.scan')}</p><div class="qr" role="img" aria-label="QR">${qr}</div>
<label>${t(view, 'instant.copy')}<textarea readonly data-pix-payload>${escapeXml(payload)}</textarea></label>
<form method="post" action="${payPath(payment, '/instant/confirm')}"><button type="submit" data-action="simulate-confirm">${t(view, 'instant.simulate')}</button></form>`,
    { canCancel: true },
  );
}

/** The payment's short reference as a bank statement would carry it. */
function transferReference(payment: SandboxPayment): string {
  return `SBX-${payment.id.slice(-10).toUpperCase()}`;
}

function bankPage(view: View): string {
  const { payment } = view;
  const isWaiting = payment.status === 'processing';
  const pendingUrl = returnUrl(view, payment.returnUrls?.pending);
  const details = `<p>${t(view, 'bank.text', { amount: amountOf(payment) })}</p>
<dl class="summary"><dt>${t(view, 'bank.beneficiary')}</dt><dd>${SANDBOX_BANK.beneficiary}</dd><dt>${t(view, 'bank.iban')}</dt><dd class="mono">${SANDBOX_BANK.iban}</dd><dt>${t(view, 'bank.bic')}</dt><dd class="mono">${SANDBOX_BANK.bic}</dd><dt>${t(view, 'bank.reference')}</dt><dd class="mono" data-transfer-reference>${transferReference(payment)}</dd></dl>`;
  const waiting = isWaiting ? `<p class="status" role="status"><span class="dot"></span>${t(view, 'bank.waiting')}</p>` : '';
  const sent = isWaiting
    ? ''
    : `<button type="submit" name="arrives" value="0" class="secondary" data-action="transfer-sent">${t(view, 'bank.sent')}</button>`;
  const back =
    isWaiting && pendingUrl
      ? `<p><a href="${escapeXml(pendingUrl)}">${t(view, 'page.back', { merchant: view.merchant })}</a></p>`
      : '';
  return frame(
    view,
    'bank.title',
    `${details}${waiting}<form method="post" action="${payPath(payment, '/bank')}"><button type="submit" name="arrives" value="1" data-action="simulate-arrival">${t(view, 'bank.simulate')}</button>${sent}</form>${back}`,
    { canCancel: !isWaiting },
  );
}

/**
 * A stored return URL, through the one redirect-target decision: the merchant's own origin is
 * the only one allowed, whatever the row holds.
 */
function returnUrl(view: Pick<View, 'origin'>, stored: string | undefined): string | undefined {
  return safeRedirectTarget(stored, '', { allowedOrigins: [view.origin] }) || undefined;
}

/** Where the browser goes for the payment's current state (its return URL for that outcome). */
function returnUrlFor(view: Pick<View, 'origin'>, payment: SandboxPayment): string | undefined {
  return returnUrl(view, payment.returnUrls?.[toProviderStatus(payment.status)]);
}

function resultPage(view: View): string {
  const { payment } = view;
  const outcome = toProviderStatus(payment.status);
  const target = returnUrlFor(view, payment);
  const reasonKey = `reason.${payment.failureReason ?? ''}`;
  const reason = outcome !== 'success' && hasSandboxText(reasonKey) ? `<p>${t(view, reasonKey)}</p>` : '';
  const mark = outcome === 'success' ? 'ok' : outcome === 'pending' ? '' : 'no';
  const link = target
    ? `<p>${t(view, 'result.redirecting', { merchant: view.merchant })}</p><p><a href="${escapeXml(target)}" data-return-url>${t(view, 'page.back', { merchant: view.merchant })}</a></p>`
    : '';
  return frame(
    view,
    `result.${outcome}`,
    `<p class="${mark}" role="status" data-outcome="${outcome}"><strong>${t(view, `result.${outcome}`)}</strong></p>${reason}${link}`,
    {
      refresh: target ? `${RESULT_REDIRECT_S};url=${target}` : undefined,
    },
  );
}

async function pageFor(view: View): Promise<string> {
  const { payment } = view;
  if (isFinalSandboxStatus(payment.status)) return resultPage(view);
  if (payment.method === 'instant') return instantPage(view);
  if (payment.method === 'bank_transfer') return bankPage(view);
  if (payment.status === 'awaiting_3ds') return challengePage(view);
  if (payment.status === 'processing') return resultPage(view);
  return cardPage(view);
}

export function createPspSandboxRoutes() {
  const routes = new Hono<AppEnv>();

  // The sandbox's pages exist only on a demo site that takes payments through it (issue 11).
  routes.use('/pay/*', async (c, next) => {
    if (!isPspSandboxSite(c.get('site')))
      return c.json({ error: new ApiError('MethodNotFoundException', 'Not found').toBody() }, 404);
    await next();
  });

  /** The payment in the address, if it is one of this site's; otherwise the "not valid" page. */
  async function load(c: Context<AppEnv>): Promise<View | Response> {
    const payment = await c.get('services').payments.sandbox.findPayment(c.req.param('ref') ?? '');
    if (!payment || payment.kind !== 'payment' || payment.siteId !== c.get('site').id) {
      const locale: Locale = c.req.header('accept-language')?.toLowerCase().startsWith('it') ? 'it' : 'en';
      return c.html(
        layout(
          locale,
          sandboxText(locale, 'page.title'),
          `<h1>${escapeXml(sandboxText(locale, 'page.title'))}</h1><p>${escapeXml(sandboxText(locale, 'page.notFound'))}</p>`,
          c.get('cspNonce'),
        ),
        404,
      );
    }
    return {
      locale: localeOf(payment),
      merchant: c.get('site').name,
      origin: siteOrigin(c.get('site'), c.req.url),
      payment,
      nonce: c.get('cspNonce'),
    };
  }

  /** Loads the payment for a form post, refusing posts from other sites (CSRF). */
  async function loadForPost(c: Context<AppEnv>): Promise<View | Response> {
    if (!isSameOriginRequest(c.req.raw)) return c.text('Cross-site request refused', 403);
    return load(c);
  }

  /** After an action: the 3-D Secure step, the page again (still to do), or back to the merchant. */
  function next(c: Context<AppEnv>, payment: SandboxPayment | undefined, view: View): Response {
    const current = payment ?? view.payment;
    if (current.status === 'awaiting_3ds') return c.redirect(payPath(current, '/3ds'), 303);
    const target = current.status === 'created' ? undefined : returnUrlFor(view, current);
    return c.redirect(target ?? payPath(current), 303);
  }

  routes.get('/pay/:ref', async (c) => {
    const view = await load(c);
    if (view instanceof Response) return view;
    return c.html(await pageFor(view));
  });

  routes.post('/pay/:ref/card', async (c) => {
    const view = await loadForPost(c);
    if (view instanceof Response) return view;
    const form = await c.req.formData();
    const card: CardInput = {
      number: String(form.get('number') ?? ''),
      holder: String(form.get('holder') ?? ''),
      expiry: String(form.get('expiry') ?? ''),
      cvc: String(form.get('cvc') ?? ''),
    };
    const result = await c.get('services').payments.sandbox.payByCard(view.payment.id, card);
    if (result?.problems) return c.html(cardPage({ ...view, payment: result.payment }, card, result.problems), 400);
    return next(c, result?.payment, view);
  });

  routes.get('/pay/:ref/3ds', async (c) => {
    const view = await load(c);
    if (view instanceof Response) return view;
    if (view.payment.status !== 'awaiting_3ds') return c.redirect(payPath(view.payment), 303);
    return c.html(challengePage(view));
  });

  routes.post('/pay/:ref/3ds', async (c) => {
    const view = await loadForPost(c);
    if (view instanceof Response) return view;
    const form = await c.req.formData();
    return next(
      c,
      await c.get('services').payments.sandbox.answerChallenge(view.payment.id, String(form.get('code') ?? '')),
      view,
    );
  });

  routes.post('/pay/:ref/instant/confirm', async (c) => {
    const view = await loadForPost(c);
    if (view instanceof Response) return view;
    await c.get('services').payments.sandbox.confirmInstant(view.payment.id);
    // Back to the page, which waits for the bank and then shows the outcome.
    return c.redirect(payPath(view.payment), 303);
  });

  routes.post('/pay/:ref/bank', async (c) => {
    const view = await loadForPost(c);
    if (view instanceof Response) return view;
    const form = await c.req.formData();
    return next(c, await c.get('services').payments.sandbox.announceTransfer(view.payment.id, form.get('arrives') === '1'), view);
  });

  routes.post('/pay/:ref/cancel', async (c) => {
    const view = await loadForPost(c);
    if (view instanceof Response) return view;
    return next(c, await c.get('services').payments.sandbox.cancel(view.payment.id), view);
  });

  return routes;
}
