/**
 * One side of a two-process race on PostgreSQL (architecture §1: site processes share state only
 * through the database). Started by test/race-processes.ts as its own Node process, with its own
 * pool and its own services, given a job as JSON in argv[2]. It prints "ready", waits for "go" on
 * stdin so that both sides start together, runs every call of the job at once, prints the
 * outcomes as one JSON line, and exits.
 */
import { createInterface } from 'node:readline';
import { isApiError } from '#common/errors';
import { openDatabase } from '../server/db/client';
import { createServices } from '../server/services';
import type { BetType } from '#common/sportsbook/bet-types';
import { RecordingProvider } from './recording-provider';
import type { RaceCall, RaceJob, RaceOutcome } from './race-processes';

type Services = ReturnType<typeof createServices>;

async function run(services: Services, provider: RecordingProvider, call: RaceCall): Promise<RaceOutcome> {
  switch (call.op) {
    case 'place': {
      const placed = await services.tickets.place(
        { siteId: call.siteId, uid: call.userId, visitorId: '', locale: 'en', siteCurrency: call.currency },
        {
          selections: call.selections.map((item) => ({ ...item, oddsUnits: BigInt(item.oddsUnits) })),
          betType: call.betType as BetType,
          stakePerLineMinor: BigInt(call.stakeMinor),
          oddsChange: 'none',
          requestId: call.requestId,
          channel: 'web',
        },
      );
      return { ok: true, id: String(placed.ticket.id) };
    }
    case 'withdraw': {
      const site = await services.sites.resolveSite('127.0.0.1');
      const user = await services.accounts.findUser(call.userId);
      if (!user) throw new Error(`no player ${call.userId}`);
      const made = await services.cashier.makeWithdrawal(
        { site, user, locale: 'en', origin: 'http://127.0.0.1' },
        { method: 'card', amount: call.amount, requisites: { card_holder: 'Ada Lovelace', card_number: '4242424242424242' } },
      );
      return { ok: true, id: made.id };
    }
    case 'deposit': {
      // The provider's notification of a deposit the test started: crediting it repays the debts first.
      await services.cashier.applyProviderEvent(
        call.siteId,
        'sandbox',
        provider.event(call.paymentId, 'success', BigInt(call.amountMinor), 'payment', `race-${call.paymentId}`),
      );
      return { ok: true, id: call.paymentId };
    }
  }
}

function outcomeOf(settled: PromiseSettledResult<RaceOutcome>): RaceOutcome {
  if (settled.status === 'fulfilled') return settled.value;
  const error: unknown = settled.reason;
  if (isApiError(error)) return { ok: false, type: error.type, data: error.errorData };
  return { ok: false, type: 'crash', data: { message: String(error) } };
}

async function main() {
  const job = JSON.parse(process.argv[2] ?? '{}') as RaceJob;
  const handle = await openDatabase({ url: job.url, poolSize: Math.max(2, job.calls.length) });
  const services = createServices(handle.db);
  const provider = new RecordingProvider();
  services.paymentProviders.set('sandbox', provider);
  const lines = createInterface({ input: process.stdin });
  const go = new Promise<void>((resolve) => lines.once('line', () => resolve()));
  process.stdout.write('ready\n');
  await go;
  lines.close();
  const settled = await Promise.allSettled(job.calls.map((call) => run(services, provider, call)));
  process.stdout.write(`${JSON.stringify(settled.map(outcomeOf))}\n`);
  await handle.close();
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
