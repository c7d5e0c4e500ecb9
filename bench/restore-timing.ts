/**
 * How long auth.restore takes for a registered login and for an unknown one (issue 11: restore
 * answered faster for unknown logins, which told an attacker which logins exist). Timing lives
 * here, never in a test (architecture §7).
 *
 *   npx tsx bench/restore-timing.ts                  200 requests per path, alternating
 *   npx tsx bench/restore-timing.ts --requests 500
 *
 * On PGlite in memory with the migrations and the demo content, it registers --requests players,
 * then sends auth.restore through the whole app in process, alternating a registered login and an
 * unknown one, each from an address of its own (so the per-address limit never answers instead),
 * and prints median, p90 and mean milliseconds per path and their difference. Afterwards it runs
 * the queued jobs and counts the messages, to show the links still go out (to registered logins only).
 */
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { openDatabase } from '../server/db/client';
import { runMigrations } from '../server/db/migrate';
import { createHttpApp } from '../server/http';
import { seedContent } from '../server/modules/content';
import { RESTORE_JOB, sendRestoreLinkJob } from '../server/modules/auth';
import { createServices } from '../server/services';
import { percentile } from './database-bench';

function requestsOption(): number {
  const index = process.argv.indexOf('--requests');
  const value = index >= 0 ? Number(process.argv[index + 1]) : 200;
  if (!Number.isInteger(value) || value < 1) throw new Error('--requests must be a positive whole number');
  return value;
}

function summary(label: string, timesMs: number[]) {
  const sorted = Float64Array.from(timesMs).sort();
  const mean = timesMs.reduce((sum, time) => sum + time, 0) / timesMs.length;
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    path: label,
    requests: timesMs.length,
    p50_ms: round(percentile(sorted, 0.5)),
    p90_ms: round(percentile(sorted, 0.9)),
    mean_ms: round(mean),
  };
}

async function main() {
  const requests = requestsOption();
  const handle = await openDatabase({ dataDir: 'memory://' });
  await runMigrations(handle);
  await seedContent(handle.db);
  const services = createServices(handle.db);
  const app = createHttpApp({
    services,
    logger: pino({ level: 'silent' }),
    mode: 'production',
    maxBodyBytes: 64 * 1024,
    proxy: { mode: 'hops', hops: 1 },
    buildVersion: 'bench',
  });
  const site = await services.sites.resolveSite('127.0.0.1');
  const registered: string[] = [];
  for (let n = 0; n < requests; n++) {
    const login = `bench-restore-${n}@example.com`;
    await services.accounts.createUser({
      siteId: site.id,
      login,
      passwordHash: 'not-a-hash',
      currency: site.defaultCurrency,
      locale: 'en',
      isSubscribed: false,
    });
    registered.push(login);
  }
  let address = 0;
  async function timeRestore(login: string): Promise<number> {
    address++;
    const started = performance.now();
    const response = await app.request('http://127.0.0.1/api/auth.restore?v=2.34&locale=en', {
      method: 'POST',
      body: new URLSearchParams({ login }),
      headers: { host: '127.0.0.1', 'x-forwarded-for': `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}` },
    });
    const body = (await response.json()) as { data?: unknown };
    const elapsed = performance.now() - started;
    if (body.data !== 1) throw new Error(`auth.restore answered ${JSON.stringify(body)}`);
    return elapsed;
  }
  // Warm-up: the first calls load translations and plan queries for both paths alike.
  for (let n = 0; n < 10; n++) await timeRestore(`warm-up-${n}@example.com`);
  const knownMs: number[] = [];
  const unknownMs: number[] = [];
  for (let n = 0; n < requests; n++) {
    knownMs.push(await timeRestore(registered[n] ?? ''));
    unknownMs.push(await timeRestore(`nobody-${n}@example.com`));
  }
  const known = summary('registered login', knownMs);
  const unknown = summary('unknown login', unknownMs);
  console.table([known, unknown]);
  console.log(
    `difference of medians: ${(known.p50_ms - unknown.p50_ms).toFixed(3)} ms; of means: ${(known.mean_ms - unknown.mean_ms).toFixed(3)} ms`,
  );
  const run = await services.jobs.drain({ [RESTORE_JOB]: sendRestoreLinkJob(services) }, { maxJobs: 10 * requests });
  const sent = (await services.messaging.latest(10 * requests)).length;
  console.log(`jobs run afterwards: ${run.done}; messages sent: ${sent} (registered logins only)`);
  await handle.close();
}

await main();
