/**
 * The money traffic of bench/chaos.ts, over HTTP as players, the PSP, an aggregator and an
 * operator send it: deposits (the sandbox's hosted card page, or the PSP's signed notifications
 * sent directly with duplicates and in either order), every kind of game round, provider-wallet
 * bets, wins and rollbacks (some replayed in parallel), withdrawals, cancels, approvals and
 * declines. Every answer that acknowledged a money operation is remembered for the final checks.
 */
import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { API_VERSION } from '#common/api-contract';
import { DEMO_PROVIDER, providerClient } from '../server/modules/provider-wallet';

export interface Player {
  uid: number;
  cookie: string;
  providerToken: string;
  /** Withdrawals the player made that may still be pending. */
  withdrawals: string[];
}

/** What the servers acknowledged: each must be found in the database at the end. */
export interface Acknowledged {
  deposits: Set<string>;
  rounds: Set<string>;
  liveBets: Set<string>;
  providerTx: Map<string, 'bet' | 'win' | 'rollback'>;
  withdrawals: Set<string>;
  cancels: Set<string>;
  approvals: Set<string>;
  declines: Set<string>;
}

export function newAcknowledged(): Acknowledged {
  return {
    deposits: new Set(),
    rounds: new Set(),
    liveBets: new Set(),
    providerTx: new Map(),
    withdrawals: new Set(),
    cancels: new Set(),
    approvals: new Set(),
    declines: new Set(),
  };
}

export interface Traffic {
  servers: () => string[];
  players: Player[];
  pspSecret: string;
  operatorToken: string;
  currency: string;
  ack: Acknowledged;
  /** Money requests sent, by operation kind. */
  counts: Map<string, number>;
  /** Failed requests by kind: HTTP status, error type or transport error. */
  errors: Map<string, number>;
  /** Requests no server answered (a process down, a connection cut): they do not count toward the run's size. */
  unanswered: number;
  /** Whether the servers serve the run's game provider (see isProviderServed). */
  hasProvider: boolean;
}

/** After a request no server answered, the worker waits a little instead of spinning through its budget. */
const UNANSWERED_PAUSE_MS = 200;

async function noAnswer(t: Traffic, kind: string, error: unknown): Promise<void> {
  t.unanswered += 1;
  bump(t.errors, `${kind}: ${(error as Error).cause ? 'connection' : (error as Error).name}`);
  await new Promise((resolve) => setTimeout(resolve, UNANSWERED_PAUSE_MS));
}

const bump = (map: Map<string, number>, key: string, by = 1) => map.set(key, (map.get(key) ?? 0) + by);
const pick = <T>(items: readonly T[]): T => items[randomInt(items.length)] as T;
const id = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex')}`;
const stake = () => (randomInt(10, 201) / 100).toFixed(2);

interface Reply {
  status: number;
  location: string | null;
  body: { data?: unknown; error?: { type: string } } & Record<string, unknown>;
}

/** One request; a transport failure (a killed server, a restarting database) comes back as status 0. */
async function send(t: Traffic, kind: string, url: string, init: RequestInit): Promise<Reply> {
  bump(t.counts, kind);
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    const text = await response.text();
    let body: Reply['body'] = {};
    try {
      body = JSON.parse(text) as Reply['body'];
    } catch {
      // a redirect or a page: judged by its status
    }
    if (response.status >= 400) bump(t.errors, `${kind}: HTTP ${response.status} ${body.error?.type ?? body.code ?? ''}`.trim());
    return { status: response.status, location: response.headers.get('location'), body };
  } catch (error) {
    await noAnswer(t, kind, error);
    return { status: 0, location: null, body: {} };
  }
}

async function api(
  t: Traffic,
  kind: string,
  player: Player,
  name: string,
  params: Record<string, string>,
  base = pick(t.servers()),
): Promise<Reply> {
  return send(t, kind, `${base}/api/${name}?v=${API_VERSION}&locale=en`, {
    method: 'POST',
    headers: { cookie: player.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params),
  });
}

/** The sandbox PSP's notification and its signature (HMAC-SHA256 of `{timestamp}.{body}`), as the PSP sends them. */
function pspNotification(t: Traffic, depositId: string, providerRef: string, amountMinor: bigint, status: string) {
  const body = JSON.stringify({
    id: id('evt_chaos'),
    type: 'payment.updated',
    created_at: new Date().toISOString(),
    data: {
      object: 'payment',
      id: providerRef,
      reference: depositId,
      status,
      amount_minor: amountMinor.toString(),
      currency: t.currency,
      method: 'card',
      failure_reason: null,
    },
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', t.pspSecret).update(`${timestamp}.${body}`).digest('hex');
  return {
    body,
    headers: { 'content-type': 'application/json', 'x-sandbox-timestamp': timestamp, 'x-sandbox-signature': signature },
  };
}

export async function deposit(t: Traffic, player: Player): Promise<void> {
  const amount = randomInt(20, 301);
  // One origin for the player's whole visit to the cashier and the card page, as in a browser.
  const base = pick(t.servers());
  const started = await api(t, 'deposit', player, 'cashier.makedeposit', { method: 'card', amount: String(amount) }, base);
  const data = started.body.data as { id: string; redirect_url: string } | undefined;
  if (!data) return;
  const providerRef = data.redirect_url.split('/pay/')[1]?.split(/[/?]/)[0] ?? '';
  if (Math.random() < 0.5) await payOnCardPage(t, data.id, providerRef, base);
  else await notifyDirectly(t, data.id, providerRef, BigInt(amount) * 100n);
}

/**
 * The player pays on the sandbox's card page, on the origin where they asked for the deposit, as a
 * browser following the cashier's redirect does; the sandbox then notifies us by its own jobs. The
 * two processes listen on two ports, which are two origins: a card page reached on the other one
 * (rightly) refuses to send the player back to a return page of another origin, so the player
 * would land on the sandbox's own result page with the payment made.
 */
async function payOnCardPage(t: Traffic, depositId: string, providerRef: string, base: string): Promise<void> {
  const reply = await send(t, 'deposit card page', `${base}/psp/sandbox/pay/${providerRef}/card`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ number: '4242424242424242', holder: 'Chaos Player', expiry: '12/39', cvc: '123' }),
  });
  // Sent back to the site's success page: the PSP took the money and owes us its notification.
  if (reply.status === 303 && reply.location?.includes('/cashier/paysuccess')) t.ack.deposits.add(depositId);
  else if (reply.status !== 0) bump(t.errors, `deposit card page: not paid (${reply.status} ${reply.location ?? ''})`);
}

/** The PSP's notifications straight to us: "processing" and "succeeded", each sent one to three times, in either order, to either process. */
async function notifyDirectly(t: Traffic, depositId: string, providerRef: string, amountMinor: bigint): Promise<void> {
  const events = [
    pspNotification(t, depositId, providerRef, amountMinor, 'processing'),
    pspNotification(t, depositId, providerRef, amountMinor, 'succeeded'),
  ];
  if (Math.random() < 0.5) events.reverse();
  for (const event of events) {
    const copies = randomInt(1, 4);
    const replies = await Promise.all(
      Array.from({ length: copies }, () =>
        send(t, copies > 1 ? 'deposit webhook (duplicated)' : 'deposit webhook', `${pick(t.servers())}/psp/sandbox/webhook`, {
          method: 'POST',
          headers: event.headers,
          body: event.body,
        }),
      ),
    );
    if (event.body.includes('"succeeded"') && replies.some((reply) => reply.status === 200)) t.ack.deposits.add(depositId);
  }
}

const SINGLE_ROUND_GAMES: [string, () => unknown][] = [
  ['dice-roll', () => ({ stake: stake(), direction: pick(['under', 'over']), target: String(randomInt(10, 90)) })],
  ['european-roulette', () => ({ bets: [{ kind: pick(['red', 'black', 'odd', 'even']), stake: stake() }] })],
  ['aurora-fortune', () => ({ stake: stake() })],
  ['golden-reels', () => ({ stake: stake() })],
  ['cascade-gems', () => ({ stake: stake() })],
];

/** A single-request round; sometimes the same request id is sent again at once (a double click, a retry). */
export async function playRound(t: Traffic, player: Player): Promise<void> {
  const [sysname, bet] = pick(SINGLE_ROUND_GAMES);
  const params = { sysname, mode: 'real', bet: JSON.stringify(bet()), request_id: id('play') };
  const copies = Math.random() < 0.15 ? 2 : 1;
  const replies = await Promise.all(
    Array.from({ length: copies }, () => api(t, `round ${sysname}`, player, 'games.play', params)),
  );
  for (const reply of replies) {
    const round = (reply.body.data as { round?: { id: string } } | undefined)?.round;
    if (round) t.ack.rounds.add(round.id);
  }
}

export async function playMines(t: Traffic, player: Player): Promise<void> {
  const bet = JSON.stringify({ stake: stake(), mines: randomInt(1, 6) });
  const started = await api(t, 'round mines', player, 'games.start', {
    sysname: 'mines-field',
    mode: 'real',
    bet,
    request_id: id('mines'),
  });
  let round = (started.body.data as { round?: { id: string; status: string } } | undefined)?.round;
  if (!round) return;
  t.ack.rounds.add(round.id);
  for (let reveals = randomInt(0, 3); reveals > 0 && round?.status === 'open'; reveals--) {
    const params = {
      round_id: round.id,
      action: 'reveal',
      params: JSON.stringify({ cell: randomInt(25) }),
      request_id: id('act'),
    };
    const reply = await api(t, 'round mines', player, 'games.act', params);
    round = (reply.body.data as { round?: { id: string; status: string } } | undefined)?.round ?? round;
  }
  if (round?.status === 'open')
    await api(t, 'round mines', player, 'games.act', { round_id: round.id, action: 'cashout', request_id: id('act') });
}

export async function playBlackjack(t: Traffic, player: Player): Promise<void> {
  const bet = JSON.stringify({ stake: stake() });
  const started = await api(t, 'round blackjack', player, 'games.start', {
    sysname: 'blackjack-classic',
    mode: 'real',
    bet,
    request_id: id('bj'),
  });
  const round = (started.body.data as { round?: { id: string; status: string } } | undefined)?.round;
  if (!round) return;
  t.ack.rounds.add(round.id);
  if (round.status !== 'open') return;
  const stand = await api(t, 'round blackjack', player, 'games.act', {
    round_id: round.id,
    action: 'stand',
    request_id: id('act'),
  });
  // With an ace showing the table asks about insurance first.
  if (stand.status !== 200) {
    await api(t, 'round blackjack', player, 'games.act', { round_id: round.id, action: 'no-insurance', request_id: id('act') });
    await api(t, 'round blackjack', player, 'games.act', { round_id: round.id, action: 'stand', request_id: id('act') });
  }
}

/** A bet on a shared live table; refused outside its betting window, which is part of the game. */
export async function placeLiveBet(t: Traffic, player: Player): Promise<void> {
  const isCrash = Math.random() < 0.5;
  const bet = isCrash
    ? { stake: stake(), auto_cash_out: (randomInt(110, 400) / 100).toFixed(2) }
    : { bets: [{ kind: pick(['red', 'black']), stake: stake() }] };
  const sysname = isCrash ? 'crash-rocket' : 'live-roulette';
  const reply = await api(t, `live bet ${sysname}`, player, 'games.placeLiveBet', {
    sysname,
    mode: 'real',
    bet: JSON.stringify(bet),
    request_id: id('live'),
  });
  const placed = (reply.body.data as { bet?: { id: string } } | undefined)?.bet;
  if (placed) t.ack.liveBets.add(placed.id);
}

/** The demo aggregator (DEMO_GAME_PROVIDER=1): it plays on demo sites only, with its published secret. */
const DEMO_PROVIDER_FOR_CHAOS = DEMO_PROVIDER;

/** An aggregator's round: a bet, then a win or a rollback of the bet; a quarter of the requests replayed in parallel. */
export async function providerRound(t: Traffic, player: Player): Promise<void> {
  const round = id('pr');
  const common = { token: player.providerToken, player_id: player.uid, round_id: round, currency: t.currency };
  const bet = { ...common, transaction_id: id('pb'), amount: randomInt(10, 201) };
  if (!(await providerCall(t, 'bet', bet))) return;
  const roll = Math.random();
  if (roll < 0.6) await providerCall(t, 'win', { ...common, transaction_id: id('pw'), amount: randomInt(0, 401) });
  else if (roll < 0.8) {
    await providerCall(t, 'rollback', { ...common, transaction_id: id('prb'), reference_transaction_id: bet.transaction_id });
  }
}

async function providerCall(
  t: Traffic,
  action: 'bet' | 'win' | 'rollback',
  body: { transaction_id: string } & Record<string, unknown>,
): Promise<boolean> {
  const copies = Math.random() < 0.25 ? randomInt(2, 4) : 1;
  const replies = await Promise.all(
    Array.from({ length: copies }, async () => {
      const base = pick(t.servers());
      const client = providerClient(
        (path, init) => fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(30_000) }),
        DEMO_PROVIDER_FOR_CHAOS,
      );
      bump(t.counts, copies > 1 ? `provider ${action} (replayed)` : `provider ${action}`);
      try {
        const reply = await client.call(action, body);
        if (reply.body.status !== 'OK') bump(t.errors, `provider ${action}: ${reply.body.code ?? reply.httpStatus}`);
        return reply.body.status === 'OK';
      } catch (error) {
        await noAnswer(t, `provider ${action}`, error);
        return false;
      }
    }),
  );
  if (replies.some(Boolean)) t.ack.providerTx.set(body.transaction_id, action);
  return replies.some(Boolean);
}

export async function withdraw(t: Traffic, player: Player): Promise<void> {
  const reply = await api(t, 'withdrawal', player, 'cashier.makewithdrawal', {
    method: 'bank-transfer',
    amount: String(randomInt(10, 31)),
    'requisites[bank]': 'DEUTDEFF',
    'requisites[account_holder]': 'Chaos Player',
    'requisites[iban]': 'DE89370400440532013000',
  });
  const made = reply.body.data as { id: string } | undefined;
  if (!made) return;
  t.ack.withdrawals.add(made.id);
  player.withdrawals.push(made.id);
}

export async function cancelWithdrawal(t: Traffic, player: Player): Promise<void> {
  const target = player.withdrawals.pop();
  if (!target) return withdraw(t, player);
  const reply = await api(t, 'withdrawal cancel', player, 'cashier.cancelwithdrawal', { id: target });
  if (reply.body.data === 1) t.ack.cancels.add(target);
}

/** The operator approves or declines one pending withdrawal through the back office. */
export async function reviewWithdrawal(t: Traffic): Promise<void> {
  const base = pick(t.servers());
  const headers = { authorization: `Bearer ${t.operatorToken}` };
  const list = await send(t, 'withdrawal review list', `${base}/backoffice/withdrawals?status=pending`, { headers });
  const pending = (list.body.data as { id: string }[] | undefined) ?? [];
  if (pending.length === 0) return;
  const target = pick(pending).id;
  const decision = Math.random() < 0.7 ? 'approve' : 'decline';
  const reply = await send(t, `withdrawal ${decision}`, `${pick(t.servers())}/backoffice/withdrawals/${target}/${decision}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: '{}',
  });
  if (reply.status === 200) (decision === 'approve' ? t.ack.approvals : t.ack.declines).add(target);
}

/**
 * Whether the servers take the run's provider on this site: since issue 11 (point 1) a configured
 * provider never plays on a demo site and the demo provider is not served in production, so on
 * the seeded demo content the provider-wallet traffic is left out (the attack suite's replay
 * probes cover it in process).
 */
export async function isProviderServed(t: Traffic, player: Player): Promise<boolean> {
  const client = providerClient((path, init) => fetch(`${t.servers()[0]}${path}`, init), DEMO_PROVIDER_FOR_CHAOS);
  const reply = await client.call('authenticate', { token: player.providerToken });
  return reply.body.status === 'OK';
}

const OPERATIONS: [number, (t: Traffic, player: Player) => Promise<void>][] = [
  [12, deposit],
  [24, playRound],
  [7, playMines],
  [6, playBlackjack],
  [8, placeLiveBet],
  [22, providerRound],
  [7, withdraw],
  [4, cancelWithdrawal],
  [5, (t) => reviewWithdrawal(t)],
];
/** One random operation of a random player. */
export async function randomOperation(t: Traffic): Promise<void> {
  const operations = t.hasProvider ? OPERATIONS : OPERATIONS.filter(([, operation]) => operation !== providerRound);
  let roll = randomInt(operations.reduce((sum, [weight]) => sum + weight, 0));
  for (const [weight, operation] of operations) {
    if (roll < weight) return operation(t, pick(t.players));
    roll -= weight;
  }
}

/** Money requests a server answered so far (every request but the back office's list). */
export function moneyRequests(t: Traffic): number {
  let total = 0;
  for (const [kind, count] of t.counts) if (kind !== 'withdrawal review list') total += count;
  return total - t.unanswered;
}
