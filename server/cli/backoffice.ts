/**
 * The back office from a terminal: talks to a running server's back-office API, so decisions
 * go through the same rules and audit log as any other operator's.
 *
 *   npm run backoffice -- withdrawals [--status pending]
 *   npm run backoffice -- approve <withdrawal-id>
 *   npm run backoffice -- decline <withdrawal-id> [--reason "…"]
 *   npm run backoffice -- ledger-check
 *   npm run backoffice -- bonuses <player-id>
 *   npm run backoffice -- bonus-grant <player-id> <template-id> --key <grant-key> [--activate] [--deposit 50.00] [--reason "…"]
 *   npm run backoffice -- bonus-cancel <bonus-id> [--reason "…"]
 *   npm run backoffice -- cashback-grant <player-id> --net-loss 50.00 [--reason "…"]
 *   npm run backoffice -- debts [--player <player-id>] [--all]
 *   npm run backoffice -- debt-write-off <debt-id> [--reason "…"]
 *   npm run backoffice -- sport-limits [--scope player|market|league]
 *   npm run backoffice -- sport-limit <player|market|league> <target> [--currency EUR] [--min-stake 0.50]
 *                         [--max-stake 200.00] [--max-payout 20000.00] [--max-exposure 100000.00]
 *
 * BACKOFFICE_URL (default http://127.0.0.1:3000) and BACKOFFICE_TOKEN (one operator's token
 * from the server's BACKOFFICE_TOKENS) say where and who.
 */
import { parseArgs } from 'node:util';
import { loadBackofficeClientConfig } from '../config';

const USAGE =
  'usage: backoffice withdrawals [--status S] | approve <id> | decline <id> [--reason R] | ledger-check' +
  ' | bonuses <player> | bonus-grant <player> <template> --key K [--activate] [--deposit A] [--reason R] | bonus-cancel <id> [--reason R]' +
  ' | cashback-grant <player> --net-loss A [--reason R] | debts [--player P] [--all] | debt-write-off <id> [--reason R]' +
  ' | sport-limits [--scope S] | sport-limit <scope> <target> [--currency C] [--min-stake A] [--max-stake A] [--max-payout A] [--max-exposure A]';

async function call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<unknown> {
  const { BACKOFFICE_URL: base, BACKOFFICE_TOKEN: token } = loadBackofficeClientConfig();
  const response = await fetch(`${base}/backoffice${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json()) as { data?: unknown; error?: { type: string; message: string } };
  if (!response.ok || answer.error)
    throw new Error(`${answer.error?.type ?? response.status}: ${answer.error?.message ?? 'request failed'}`);
  return answer.data;
}

interface BonusLine {
  id: number;
  type: string;
  status: string;
  description: { title: string };
  amount: { amount: string; currency: string };
  balance: { amount: string };
  wagering: { percent: number };
}

function bonusLine(row: BonusLine): string {
  const money = `${row.amount.amount} ${row.amount.currency} (balance ${row.balance.amount})`;
  return `${row.id}  ${row.type}  ${row.status}  ${money}  wagered ${row.wagering.percent}%  ${row.description.title}`;
}

interface DebtLine {
  id: number;
  user_id: number;
  currency: string;
  amount: string;
  owed: string;
  status: string;
  reference: string;
  created_at: string;
}

function debtLine(row: DebtLine): string {
  return `${row.id}  player ${row.user_id}  ${row.status}  owes ${row.owed} of ${row.amount} ${row.currency}  ${row.reference}  ${row.created_at}`;
}

interface LimitLine {
  scope: string;
  target: string;
  currency: string;
  min_stake: string | null;
  max_stake: string | null;
  max_payout: string | null;
  max_exposure: string | null;
}

function limitLine(row: LimitLine): string {
  const shown = (value: string | null) => value ?? '-';
  return (
    `${row.scope} ${row.target} ${row.currency}: min stake ${shown(row.min_stake)}, max stake ${shown(row.max_stake)},` +
    ` max payout ${shown(row.max_payout)}, max exposure ${shown(row.max_exposure)}`
  );
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      status: { type: 'string', default: 'pending' },
      reason: { type: 'string' },
      key: { type: 'string' },
      activate: { type: 'boolean', default: false },
      deposit: { type: 'string' },
      'net-loss': { type: 'string' },
      player: { type: 'string' },
      all: { type: 'boolean', default: false },
      scope: { type: 'string' },
      currency: { type: 'string' },
      'min-stake': { type: 'string' },
      'max-stake': { type: 'string' },
      'max-payout': { type: 'string' },
      'max-exposure': { type: 'string' },
    },
  });
  const [command, id, templateId] = positionals;
  switch (command) {
    case 'withdrawals': {
      const rows = (await call('GET', `/withdrawals?status=${encodeURIComponent(values.status ?? 'pending')}`)) as {
        id: string;
        userId: number;
        amount: string;
        currency: string;
        method: string;
        createdAt: string;
      }[];
      if (rows.length === 0) console.log(`No ${values.status} withdrawals.`);
      for (const row of rows)
        console.log(`${row.id}  player ${row.userId}  ${row.amount} ${row.currency}  ${row.method}  ${row.createdAt}`);
      return 0;
    }
    case 'approve':
    case 'decline': {
      if (!id) break;
      const result = (await call(
        'POST',
        `/withdrawals/${encodeURIComponent(id)}/${command}`,
        command === 'decline' ? { reason: values.reason } : {},
      )) as { id: string; status: string };
      console.log(`${result.id}: ${result.status}`);
      return 0;
    }
    case 'bonuses': {
      if (!id) break;
      const rows = (await call('GET', `/bonuses?user_id=${encodeURIComponent(id)}`)) as BonusLine[];
      if (rows.length === 0) console.log(`Player ${id} has no bonuses.`);
      for (const row of rows) console.log(bonusLine(row));
      return 0;
    }
    case 'bonus-grant': {
      if (!id || !templateId || !values.key) break;
      const body = { user_id: Number(id), template_id: templateId, grant_key: values.key, activate: values.activate };
      const extra = {
        ...(values.deposit ? { deposit_amount: values.deposit } : {}),
        ...(values.reason ? { reason: values.reason } : {}),
      };
      const result = (await call('POST', '/bonuses', { ...body, ...extra })) as { id: number; status: string; is_new: boolean };
      console.log(`bonus ${result.id}: ${result.status}${result.is_new ? '' : ' (granted before with this key)'}`);
      return 0;
    }
    case 'bonus-cancel': {
      if (!id) break;
      const result = (await call('POST', `/bonuses/${encodeURIComponent(id)}/cancel`, { reason: values.reason })) as {
        id: number;
        status: string;
      };
      console.log(`bonus ${result.id}: ${result.status}`);
      return 0;
    }
    case 'cashback-grant': {
      const netLoss = values['net-loss'];
      if (!id || !netLoss) break;
      const body = { user_id: Number(id), net_loss: netLoss, ...(values.reason ? { reason: values.reason } : {}) };
      const result = (await call('POST', '/cashbacks', body)) as {
        id: number;
        amount: string;
        currency: string;
        end_date: string;
        is_new: boolean;
      };
      const note = result.is_new ? '' : ' (the player already had the cashback of this period)';
      console.log(`cashback ${result.id}: ${result.amount} ${result.currency} for the period ending ${result.end_date}${note}`);
      return 0;
    }
    case 'debts': {
      const query = new URLSearchParams({
        status: values.all ? 'all' : 'open',
        ...(values.player ? { user_id: values.player } : {}),
      });
      const rows = (await call('GET', `/sportsbook/debts?${query.toString()}`)) as DebtLine[];
      if (rows.length === 0) console.log(values.all ? 'No debts.' : 'No open debts.');
      for (const row of rows) console.log(debtLine(row));
      return 0;
    }
    case 'debt-write-off': {
      if (!id) break;
      const row = (await call('POST', `/sportsbook/debts/${encodeURIComponent(id)}/write-off`, {
        ...(values.reason ? { reason: values.reason } : {}),
      })) as DebtLine;
      console.log(debtLine(row));
      return 0;
    }
    case 'sport-limits': {
      const rows = (await call(
        'GET',
        `/sportsbook/limits${values.scope ? `?scope=${encodeURIComponent(values.scope)}` : ''}`,
      )) as LimitLine[];
      if (rows.length === 0) console.log('No player, market or league limits: the site limits apply.');
      for (const row of rows) console.log(limitLine(row));
      return 0;
    }
    case 'sport-limit': {
      if (!id || !templateId) break;
      const body = {
        scope: id,
        target: templateId,
        ...(values.currency ? { currency: values.currency } : {}),
        min_stake: values['min-stake'] ?? null,
        max_stake: values['max-stake'] ?? null,
        max_payout: values['max-payout'] ?? null,
        max_exposure: values['max-exposure'] ?? null,
      };
      console.log(limitLine((await call('PUT', '/sportsbook/limits', body)) as LimitLine));
      return 0;
    }
    case 'ledger-check': {
      const report = (await call('GET', '/ledger/check')) as {
        isSound: boolean;
        transfers: number;
        accounts: number;
        auditEntries: number;
      };
      console.log(JSON.stringify(report, null, 2));
      return report.isSound ? 0 : 1;
    }
  }
  console.error(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
