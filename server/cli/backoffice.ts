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
 *
 * BACKOFFICE_URL (default http://127.0.0.1:3000) and BACKOFFICE_TOKEN (one operator's token
 * from the server's BACKOFFICE_TOKENS) say where and who.
 */
import { parseArgs } from 'node:util';
import { loadBackofficeClientConfig } from '../config';

const USAGE =
  'usage: backoffice withdrawals [--status S] | approve <id> | decline <id> [--reason R] | ledger-check' +
  ' | bonuses <player> | bonus-grant <player> <template> --key K [--activate] [--deposit A] [--reason R] | bonus-cancel <id> [--reason R]' +
  ' | cashback-grant <player> --net-loss A [--reason R]';

async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
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
