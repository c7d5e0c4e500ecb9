/**
 * The end of a chaos run: the ledger's invariants and audit chains (checkLedger), every
 * acknowledged operation found in the database, and each player's balance equal to what the
 * domain records add up to — deposits − withdrawals + net game results — computed from the
 * cashier's payments, the rounds, the live bets and the provider transactions, not the ledger.
 */
import pg from 'pg';
import { openDatabase } from '../server/db/client';
import { checkLedger, type LedgerCheckReport } from '../server/modules/wallet';
import type { Acknowledged } from './chaos-traffic';

export interface CheckResult {
  name: string;
  isOk: boolean;
  detail: string;
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** The jobs module's lease (its DEFAULT_LEASE_MS): a job claimed by a process that died waits this long. */
const JOB_LEASE_MS = 5 * 60_000;

/**
 * Waits until the sandbox has no notification or settlement left to deliver (or `timeoutMs`
 * passed). After the run's outages its retries back off for minutes, and a job a killed process
 * had claimed waits out a five-minute lease; this fast-forwards both instead of waiting: retries
 * become due now, and leases taken before the last outage (a process death or the database restart) end now.
 */
export async function waitForQuiet(url: string, timeoutMs: number, lastOutageAt: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let left = 0;
  while (Date.now() < deadline) {
    await query(
      url,
      `UPDATE jobs SET run_at = least(run_at, now()),
              locked_until = CASE WHEN locked_until < $1 THEN NULL ELSE locked_until END
       WHERE done_at IS NULL AND failed_at IS NULL AND kind LIKE 'psp-sandbox.%'`,
      [new Date(lastOutageAt + JOB_LEASE_MS + 1_000)],
    );
    const [row] = await query<{ n: number }>(
      url,
      `SELECT count(*)::int AS n FROM jobs WHERE done_at IS NULL AND failed_at IS NULL AND kind LIKE 'psp-sandbox.%'`,
    );
    left = row?.n ?? 0;
    if (left === 0) return 0;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return left;
}

async function ledgerCheck(url: string): Promise<CheckResult> {
  const handle = await openDatabase({ url, poolSize: 1 });
  try {
    const report: LedgerCheckReport = await handle.db.transaction((tx) => checkLedger(tx), {
      isolationLevel: 'repeatable read',
      accessMode: 'read only',
    });
    const problems = Object.entries(report)
      .filter(([, value]) => Array.isArray(value) && value.length > 0)
      .map(([key, value]) => `${key}: ${(value as unknown[]).length}`);
    return {
      name: 'ledger invariants and audit chain (checkLedger)',
      isOk: report.isSound,
      detail: `${report.transfers} transfers, ${report.accounts} accounts, ${report.auditEntries} audit entries${
        problems.length ? `; problems ${problems.join(', ')}` : ''
      }`,
    };
  } finally {
    await handle.close();
  }
}

/** Which acknowledged ids the database does not hold (in the state the acknowledgement promised). */
async function missing(url: string, ids: string[], sql: string): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await query<{ id: string }>(url, sql, [ids]);
  const found = new Set(rows.map((row) => String(row.id)));
  return ids.filter((item) => !found.has(item));
}

async function acknowledgedPresent(url: string, ack: Acknowledged): Promise<CheckResult> {
  const providerIds = [...ack.providerTx.keys()];
  const rolledBackBets = await query<{ id: string }>(
    url,
    `SELECT r.tx_id AS id FROM provider_transactions r JOIN provider_transactions b ON b.tx_id = r.ref_tx_id
     WHERE r.tx_id = ANY($1) AND r.kind = 'rollback' AND b.status <> 'rolled_back' AND b.kind = 'bet'`,
    [providerIds],
  );
  const lost: Record<string, string[]> = {
    deposits: await missing(url, [...ack.deposits], `SELECT id FROM payments WHERE id = ANY($1) AND status = 'success'`),
    rounds: await missing(url, [...ack.rounds], `SELECT id::text AS id FROM game_rounds WHERE id::text = ANY($1)`),
    liveBets: await missing(url, [...ack.liveBets], `SELECT id::text AS id FROM live_bets WHERE id::text = ANY($1)`),
    providerTx: await missing(url, providerIds, `SELECT tx_id AS id FROM provider_transactions WHERE tx_id = ANY($1)`),
    rollbacksNotApplied: rolledBackBets.map((row) => row.id),
    withdrawals: await missing(
      url,
      [...ack.withdrawals],
      `SELECT id FROM payments WHERE id = ANY($1) AND direction = 'withdrawal'`,
    ),
    cancels: await missing(url, [...ack.cancels], `SELECT id FROM payments WHERE id = ANY($1) AND status = 'cancelled'`),
    approvals: await missing(
      url,
      [...ack.approvals],
      `SELECT id FROM payments WHERE id = ANY($1) AND status IN ('processing', 'success', 'fail')`,
    ),
    declines: await missing(url, [...ack.declines], `SELECT id FROM payments WHERE id = ANY($1) AND status = 'declined'`),
  };
  const total =
    ack.deposits.size +
    ack.rounds.size +
    ack.liveBets.size +
    ack.providerTx.size +
    ack.withdrawals.size +
    ack.cancels.size +
    ack.approvals.size +
    ack.declines.size;
  const gone = Object.entries(lost).filter(([, ids]) => ids.length > 0);
  const counts = `deposits ${ack.deposits.size}, rounds ${ack.rounds.size}, live bets ${ack.liveBets.size}, provider transactions ${ack.providerTx.size}, withdrawals ${ack.withdrawals.size}, cancels ${ack.cancels.size}, approvals ${ack.approvals.size}, declines ${ack.declines.size}`;
  return {
    name: 'every acknowledged operation is in the database',
    isOk: gone.length === 0,
    detail: `${total} acknowledged (${counts}); ${
      gone.length
        ? `missing ${gone.map(([kind, ids]) => `${kind} ${ids.length} e.g. ${ids.slice(0, 3).join(' ')}`).join('; ')}`
        : 'all found'
    }`,
  };
}

/**
 * Per player, from the domain records: successful deposits, minus withdrawals not given back
 * (pending, processing, paid), plus real-money results of rounds, live bets and provider
 * transactions; compared with the ledger's main balance.
 */
const EXPECTED_BALANCES = `
WITH deposits AS (
  SELECT user_id, sum(amount_minor) AS v FROM payments WHERE direction = 'deposit' AND status = 'success' GROUP BY user_id
), withdrawals AS (
  SELECT user_id, sum(amount_minor) AS v FROM payments
  WHERE direction = 'withdrawal' AND status IN ('pending', 'processing', 'success') GROUP BY user_id
), rounds AS (
  SELECT user_id, sum(coalesce(payout_minor, 0) - stake_minor) AS v FROM game_rounds WHERE mode = 'real' AND user_id IS NOT NULL GROUP BY user_id
), live AS (
  SELECT user_id, sum(coalesce(payout_minor, 0) - stake_minor) AS v FROM live_bets WHERE mode = 'real' AND user_id IS NOT NULL GROUP BY user_id
), provider AS (
  SELECT user_id, sum(CASE WHEN kind = 'bet' AND status = 'applied' THEN -amount_minor
                           WHEN kind = 'win' AND status = 'applied' THEN amount_minor ELSE 0 END) AS v
  FROM provider_transactions GROUP BY user_id
), main AS (
  SELECT user_id, balance_minor AS v FROM ledger_accounts WHERE owner_kind = 'player' AND type = 'main'
)
SELECT u.id AS uid,
       coalesce(d.v, 0)::text AS deposits, coalesce(w.v, 0)::text AS withdrawals,
       (coalesce(r.v, 0) + coalesce(l.v, 0) + coalesce(p.v, 0))::text AS games,
       (coalesce(d.v, 0) - coalesce(w.v, 0) + coalesce(r.v, 0) + coalesce(l.v, 0) + coalesce(p.v, 0))::text AS expected,
       coalesce(m.v, 0)::text AS actual
FROM users u
LEFT JOIN deposits d ON d.user_id = u.id LEFT JOIN withdrawals w ON w.user_id = u.id
LEFT JOIN rounds r ON r.user_id = u.id LEFT JOIN live l ON l.user_id = u.id
LEFT JOIN provider p ON p.user_id = u.id LEFT JOIN main m ON m.user_id = u.id
WHERE u.id = ANY($1)`;

async function balancesAddUp(url: string, uids: number[]): Promise<CheckResult & { totals: Record<string, bigint> }> {
  const rows = await query<{
    uid: string;
    deposits: string;
    withdrawals: string;
    games: string;
    expected: string;
    actual: string;
  }>(url, EXPECTED_BALANCES, [uids]);
  const wrong = rows.filter((row) => row.expected !== row.actual);
  const totals = { deposits: 0n, withdrawals: 0n, games: 0n, balances: 0n };
  for (const row of rows) {
    totals.deposits += BigInt(row.deposits);
    totals.withdrawals += BigInt(row.withdrawals);
    totals.games += BigInt(row.games);
    totals.balances += BigInt(row.actual);
  }
  const money = (minor: bigint) => (Number(minor) / 100).toFixed(2);
  return {
    name: 'balances = deposits − withdrawals + net game results',
    isOk: wrong.length === 0 && rows.length === uids.length,
    detail: `${rows.length} players; deposits ${money(totals.deposits)}, withdrawals ${money(totals.withdrawals)}, net games ${money(
      totals.games,
    )}, balances ${money(totals.balances)}${
      wrong.length
        ? `; ${wrong.length} differ, e.g. ${wrong
            .slice(0, 3)
            .map((row) => `uid ${row.uid} expected ${row.expected} found ${row.actual}`)
            .join(', ')}`
        : ''
    }`,
    totals,
  };
}

/** Notifications the sandbox gave up on: each is a payment whose outcome never reached us. */
async function deliveriesAbandoned(url: string): Promise<CheckResult> {
  const [row] = await query<{ failed: number; done: number }>(
    url,
    `SELECT count(*) FILTER (WHERE failed_at IS NOT NULL)::int AS failed, count(*) FILTER (WHERE done_at IS NOT NULL)::int AS done
     FROM jobs WHERE kind LIKE 'psp-sandbox.%'`,
  );
  return {
    name: 'the sandbox delivered every notification',
    isOk: (row?.failed ?? 0) === 0,
    detail: `${row?.done ?? 0} sandbox jobs done, ${row?.failed ?? 0} abandoned`,
  };
}

export async function finalChecks(url: string, ack: Acknowledged, uids: number[]): Promise<CheckResult[]> {
  return [
    await ledgerCheck(url),
    await acknowledgedPresent(url, ack),
    await balancesAddUp(url, uids),
    await deliveriesAbandoned(url),
  ];
}
