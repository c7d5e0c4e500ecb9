/**
 * The ledger's invariants (architecture §5), checked against the database as it is: postings of
 * each transfer sum to zero per currency, each cached balance equals its postings, no player
 * balance is negative, every idempotency key is applied once, every transfer is in the audit
 * log and the audit chains verify, and what players' open debts still owe equals minus the house's
 * `player_debt` accounts, per site and currency (debts.ts).
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/retry';
import { verifyAuditChains, type ChainProblem } from './audit';

export interface LedgerCheckReport {
  transfers: number;
  accounts: number;
  auditEntries: number;
  unbalancedTransfers: { transferId: number; currency: string; sumMinor: string }[];
  transfersWithoutPostings: number[];
  currencyMismatches: number[];
  balanceMismatches: { accountId: number; cachedMinor: string; postedMinor: string }[];
  negativePlayerAccounts: number[];
  repeatedKeys: string[];
  transfersWithoutAudit: number[];
  debtMismatches: { siteId: string; currency: string; owedMinor: string; ledgerMinor: string }[];
  auditProblems: ChainProblem[];
  isSound: boolean;
}

async function rows<T>(db: Executor, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

export async function checkLedger(db: Executor): Promise<LedgerCheckReport> {
  const [counts] = await rows<{ transfers: number; accounts: number }>(
    db,
    sql`SELECT (SELECT count(*) FROM ledger_transfers)::int AS transfers, (SELECT count(*) FROM ledger_accounts)::int AS accounts`,
  );
  const unbalanced = await rows<{ transfer_id: number; currency: string; total: string }>(
    db,
    sql`SELECT transfer_id, currency, sum(amount_minor)::text AS total FROM ledger_postings GROUP BY transfer_id, currency HAVING sum(amount_minor) <> 0 LIMIT 100`,
  );
  const empty = await rows<{ id: number }>(
    db,
    sql`SELECT t.id FROM ledger_transfers t WHERE NOT EXISTS (SELECT 1 FROM ledger_postings p WHERE p.transfer_id = t.id) LIMIT 100`,
  );
  const mismatchedCurrency = await rows<{ id: number }>(
    db,
    sql`SELECT p.id FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id JOIN ledger_transfers t ON t.id = p.transfer_id
        WHERE p.currency <> a.currency OR p.currency <> t.currency LIMIT 100`,
  );
  const balances = await rows<{ id: number; cached: string; posted: string }>(
    db,
    sql`SELECT a.id, a.balance_minor::text AS cached, coalesce(p.total, 0)::text AS posted
        FROM ledger_accounts a LEFT JOIN (SELECT account_id, sum(amount_minor) AS total FROM ledger_postings GROUP BY account_id) p ON p.account_id = a.id
        WHERE a.balance_minor <> coalesce(p.total, 0) LIMIT 100`,
  );
  const negative = await rows<{ id: number }>(
    db,
    sql`SELECT id FROM ledger_accounts WHERE owner_kind = 'player' AND balance_minor < 0 LIMIT 100`,
  );
  const repeated = await rows<{ key: string }>(
    db,
    sql`SELECT idempotency_key AS key FROM ledger_transfers WHERE idempotency_key IS NOT NULL GROUP BY idempotency_key HAVING count(*) > 1 LIMIT 100`,
  );
  const unaudited = await rows<{ id: number }>(
    db,
    sql`SELECT t.id FROM ledger_transfers t LEFT JOIN audit_log l ON l.subject = 'transfer:' || t.id WHERE l.id IS NULL LIMIT 100`,
  );
  const debts = await rows<{ site_id: string; currency: string; owed: string; ledger: string }>(
    db,
    sql`SELECT coalesce(d.site_id, a.site_id) AS site_id, coalesce(d.currency, a.currency) AS currency,
               coalesce(d.owed, 0)::text AS owed, coalesce(-a.balance, 0)::text AS ledger
        FROM (SELECT site_id, currency, sum(amount_minor - cleared_minor - written_off_minor) AS owed
              FROM player_debts WHERE status = 'open' GROUP BY site_id, currency) d
        FULL JOIN (SELECT site_id, currency, sum(balance_minor) AS balance
              FROM ledger_accounts WHERE owner_kind = 'house' AND type = 'player_debt' GROUP BY site_id, currency) a
          ON a.site_id = d.site_id AND a.currency = d.currency
        WHERE coalesce(d.owed, 0) <> coalesce(-a.balance, 0) LIMIT 100`,
  );
  const audit = await verifyAuditChains(db);
  const report: Omit<LedgerCheckReport, 'isSound'> = {
    transfers: counts?.transfers ?? 0,
    accounts: counts?.accounts ?? 0,
    auditEntries: audit.entries,
    unbalancedTransfers: unbalanced.map((row) => ({
      transferId: Number(row.transfer_id),
      currency: row.currency,
      sumMinor: row.total,
    })),
    transfersWithoutPostings: empty.map((row) => Number(row.id)),
    currencyMismatches: mismatchedCurrency.map((row) => Number(row.id)),
    balanceMismatches: balances.map((row) => ({ accountId: Number(row.id), cachedMinor: row.cached, postedMinor: row.posted })),
    negativePlayerAccounts: negative.map((row) => Number(row.id)),
    repeatedKeys: repeated.map((row) => row.key),
    transfersWithoutAudit: unaudited.map((row) => Number(row.id)),
    auditProblems: audit.problems,
    debtMismatches: debts.map((row) => ({
      siteId: row.site_id,
      currency: row.currency,
      owedMinor: row.owed,
      ledgerMinor: row.ledger,
    })),
  };
  const isSound = Object.values(report).every((value) => !Array.isArray(value) || value.length === 0);
  return { ...report, isSound };
}
