/**
 * The back office from a terminal: talks to a running server's back-office API, so decisions
 * go through the same rules and audit log as any other operator's.
 *
 *   npm run backoffice -- withdrawals [--status pending]
 *   npm run backoffice -- approve <withdrawal-id>
 *   npm run backoffice -- decline <withdrawal-id> [--reason "…"]
 *   npm run backoffice -- ledger-check
 *
 * BACKOFFICE_URL (default http://127.0.0.1:3000) and BACKOFFICE_TOKEN (one operator's token
 * from the server's BACKOFFICE_TOKENS) say where and who.
 */
import { parseArgs } from 'node:util';
import { loadBackofficeClientConfig } from '../config';

const USAGE = 'usage: backoffice withdrawals [--status S] | approve <id> | decline <id> [--reason R] | ledger-check';

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

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { status: { type: 'string', default: 'pending' }, reason: { type: 'string' } },
  });
  const [command, id] = positionals;
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
