import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabase } from '../test/databases';
import { cookiePair, siteSeed } from '../test/fixtures';
import { API_VERSION } from '#common/api-contract';
import { freePort } from '../test/free-port';
import pg from 'pg';
import { openDatabase } from './db/client';
import { checkLedger, createWalletService, house, move, player } from './modules/wallet';
import { sql } from 'drizzle-orm';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = fileURLToPath(new URL('../build/server/main.js', import.meta.url));

interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  output: string[];
}

async function startServer(databaseUrl: string): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return { child, baseUrl: `http://127.0.0.1:${port}`, output };
}

async function waitForHealth(server: ServerProcess, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null)
      throw new Error(`server exited with ${server.child.exitCode}:\n${server.output.join('')}`);
    try {
      if ((await fetch(`${server.baseUrl}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${server.baseUrl} did not become healthy:\n${server.output.join('')}`);
}

async function stopServer(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

function titleOf(html: string): string | undefined {
  return /<title>([^<]*)<\/title>/.exec(html)?.[1];
}

// Two processes only share state through PostgreSQL: PGlite is embedded in one process, so
// this runs only when TEST_DATABASE_URL names a PostgreSQL server.
describe.skipIf(!process.env.TEST_DATABASE_URL)('two processes on one PostgreSQL behave as one site (architecture §1)', () => {
  let database: TestDatabase;
  let a: ServerProcess | undefined;
  let b: ServerProcess | undefined;

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first (npm test builds before vitest)`);
    database = await createTestDatabase('postgres');
    if (!database.url) throw new Error('createTestDatabase gave no URL');
    // Both start at once, so both race to migrate and seed the fresh database.
    [a, b] = await Promise.all([startServer(database.url), startServer(database.url)]);
    await Promise.all([waitForHealth(a), waitForHealth(b)]);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([stopServer(a), stopServer(b)]);
    await database?.drop();
  });

  const api = (server: ServerProcess | undefined, call: string, init: RequestInit = {}, query: Record<string, string> = {}) =>
    fetch(`${server?.baseUrl}/api/${call}?${new URLSearchParams({ v: API_VERSION, locale: 'en', ...query })}`, init);
  /** A same-origin form POST of an API call, with the session's cookie. */
  const post = (server: ServerProcess | undefined, call: string, params: Record<string, string>, cookie = '') =>
    api(server, call, {
      method: 'POST',
      headers: { cookie, origin: server?.baseUrl ?? '', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params),
    });

  it('gives storage.get through process B the value storage.set stored through process A for the same visitor cookie', async () => {
    const cookie = `vid=${randomBytes(16).toString('base64url')}`;
    const value = `from-a-${randomBytes(4).toString('hex')}`;
    const set = await api(a, 'storage.set', {
      method: 'POST',
      headers: { cookie, origin: a?.baseUrl ?? '', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key: 'shared_key', value }),
    });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ data: 1 });
    const got = await api(b, 'storage.get', { headers: { cookie } }, { keys: 'shared_key' });
    expect(await got.json()).toEqual({ data: { shared_key: value } });
  });

  it('keeps a session opened through process A valid on process B (sessions live in the database)', async () => {
    const login = `multi-${randomBytes(4).toString('hex')}@example.com`;
    const registered = await api(a, 'auth.register', {
      method: 'POST',
      headers: { origin: a?.baseUrl ?? '', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ login, password: 'Secret123', terms: '1' }),
    });
    const body = (await registered.json()) as { data?: { uid: number } };
    expect(registered.status, JSON.stringify(body)).toBe(200);
    const session = cookiePair(registered, 'sid');
    expect(session).toBeDefined();
    const info = (await (await api(b, 'account.getInfo', { headers: { cookie: session ?? '' } })).json()) as {
      data: { uid: number; login: string };
    };
    expect(info.data.uid).toBe(body.data?.uid);
    expect(info.data.uid).toBeGreaterThan(0);
  });

  it('a session kept in process A’s memory is refused there soon after it signs out through process B (issue 12: caches invalidated across processes)', async () => {
    const login = `multi-out-${randomBytes(4).toString('hex')}@example.com`;
    const registered = await api(a, 'auth.register', {
      method: 'POST',
      headers: { origin: a?.baseUrl ?? '', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ login, password: 'Secret123', terms: '1' }),
    });
    expect(registered.status).toBe(200);
    const session = cookiePair(registered, 'sid') ?? '';
    const uidOn = async (server: ServerProcess | undefined) =>
      ((await (await api(server, 'account.getInfo', { headers: { cookie: session } })).json()) as { data: { uid: number } }).data
        .uid;
    // Read twice on A, so A answers the session from memory.
    expect(await uidOn(a)).toBeGreaterThan(0);
    expect(await uidOn(a)).toBeGreaterThan(0);
    const out = await api(b, 'auth.logout', {
      method: 'POST',
      headers: { cookie: session, origin: b?.baseUrl ?? '', 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(out.status).toBe(200);
    // Far below the cache's 30 s safety-net age: only the change notification can end it this soon on A.
    const deadline = Date.now() + 3_000;
    let uid = await uidOn(a);
    while (uid !== 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      uid = await uidOn(a);
    }
    expect(uid).toBe(0);
  });

  it("a round played through process A shows in process B's getInfo, answered there from memory, as soon as the balance change notification arrives (issue 12, migration 0031)", async () => {
    const login = `balance-${randomBytes(4).toString('hex')}@example.com`;
    const session = cookiePair(await post(a, 'auth.register', { login, password: 'Secret123', terms: '1' }), 'sid') ?? '';
    expect((await post(a, 'campaigns.activateOffer', { promo_code: 'WELCOME10' }, session)).status).toBe(200);
    const bonusOn = async (server: ServerProcess | undefined) =>
      (
        (await (await api(server, 'account.getInfo', { headers: { cookie: session } })).json()) as {
          data: { balances: { balance_bonus: { amount: string } } };
        }
      ).data.balances.balance_bonus.amount;
    // Read twice on B, so B answers from memory.
    const before = await bonusOn(b);
    expect(await bonusOn(b)).toBe(before);
    // A spin may pay its stake back: spun until the bonus balance moved.
    let after: string | undefined = before;
    for (let spin = 0; spin < 10 && after === before; spin++) {
      const spun = (await (
        await post(
          a,
          'games.play',
          { sysname: 'aurora-fortune', mode: 'real', bet: '{"stake":"0.50"}', request_id: `mp-balance-${spin}` },
          session,
        )
      ).json()) as { data?: { bonus_balance?: { amount: string } } };
      after = spun.data?.bonus_balance?.amount;
      expect(after).toBeDefined();
    }
    expect(after).not.toBe(before);
    // Far below the balances' 5 s safety-net age: only the notification can bring the round to B this soon.
    const deadline = Date.now() + 2_000;
    let seen = await bonusOn(b);
    while (seen !== after && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen = await bonusOn(b);
    }
    expect(seen).toBe(after);
  });

  it("a real-money round played through process A (play_rounds, told after its commit) shows in process B's getInfo, answered there from memory, as soon as A's notification arrives (issue 12, migration 0031)", async () => {
    const login = `main-${randomBytes(4).toString('hex')}@example.com`;
    const session = cookiePair(await post(a, 'auth.register', { login, password: 'Secret123', terms: '1' }), 'sid') ?? '';
    const infoOn = async (server: ServerProcess | undefined) =>
      (
        (await (await api(server, 'account.getInfo', { headers: { cookie: session } })).json()) as {
          data: { uid: number; balances: { balance_main: { amount: string } } };
        }
      ).data;
    const uid = (await infoOn(a)).uid;
    const handle = await openDatabase({ url: database.url, poolSize: 1 });
    try {
      const [row] = (
        (await handle.db.execute(sql`SELECT site_id, currency FROM users WHERE id = ${uid}`)) as unknown as {
          rows: { site_id: string; currency: string }[];
        }
      ).rows;
      await createWalletService(handle.db).transfer({
        siteId: row!.site_id,
        userId: uid,
        kind: 'deposit',
        currency: row!.currency,
        amountMinor: 1_000n,
        legs: move(house('psp_clearing'), player(uid, 'main'), 1_000n),
        idempotencyKey: `multi-process-fund:${uid}`,
        actor: 'system',
        reason: 'multi-process test funding',
      });
    } finally {
      await handle.close();
    }
    // The deposit reaches B by its trigger's notification; read twice there, so B answers from memory.
    const deadline = Date.now() + 3_000;
    while ((await infoOn(b)).balances.balance_main.amount !== '10.00' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await infoOn(b)).balances.balance_main.amount).toBe('10.00');
    // The first round opens the player's seed in a transaction of its own; the second is shared (play_rounds).
    for (const round of [1, 2]) {
      const played = (await (
        await post(
          a,
          'games.play',
          {
            sysname: 'dice-roll',
            mode: 'real',
            bet: '{"stake":"1.00","direction":"under","target":"50.00"}',
            request_id: `mp-main-${round}`,
          },
          session,
        )
      ).json()) as { data?: unknown };
      expect(played.data).toBeDefined();
      const after = (await infoOn(a)).balances.balance_main.amount;
      // Far below the balances' 5 s safety-net age: only A's notification can bring the round to B this soon.
      const roundDeadline = Date.now() + 2_000;
      let seen = (await infoOn(b)).balances.balance_main.amount;
      while (seen !== after && Date.now() < roundDeadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        seen = (await infoOn(b)).balances.balance_main.amount;
      }
      expect({ round, seen }).toEqual({ round, seen: after });
    }
  });

  it('answers, in the production build, a path below an API call with the 404 error envelope, not a rendered page', async () => {
    const response = await fetch(`${a?.baseUrl}/api/storage.get/extra`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(((await response.json()) as { error?: { type: string } }).error?.type).toBe('MethodNotFoundException');
  });

  it('serves the same page title for / from both processes, naming the site of the host', async () => {
    const [pageA, pageB] = await Promise.all([fetch(`${a?.baseUrl}/`), fetch(`${b?.baseUrl}/`)]);
    expect(pageA.status).toBe(200);
    expect(pageB.status).toBe(200);
    const [titleA, titleB] = [titleOf(await pageA.text()), titleOf(await pageB.text())];
    expect(titleA).toBeDefined();
    expect(titleA).toBe(titleB);
    expect(titleA).toContain(siteSeed('aurora').name);
  });

  it("shows an operator's edit of the site in the database on both processes at once (issue 12: caches invalidated across processes)", async () => {
    const original = siteSeed('aurora').name;
    // Both processes have the site list cached from the pages above; the edit is plain SQL, as an operator's would be.
    const renamed = `Renamed ${randomBytes(4).toString('hex')}`;
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query('UPDATE sites SET name = $1 WHERE id = $2', [renamed, 'aurora']);
      // Far below the caches' 30 s safety-net age: only the change notification can show it this soon.
      const deadline = Date.now() + 3_000;
      const titles = async () =>
        Promise.all([a, b].map(async (server) => titleOf(await (await fetch(`${server?.baseUrl}/`)).text())));
      let seen = await titles();
      while (!seen.every((title) => title?.includes(renamed)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        seen = await titles();
      }
      expect(seen[0]).toContain(renamed);
      expect(seen[1]).toContain(renamed);
    } finally {
      await client.query('UPDATE sites SET name = $1 WHERE id = $2', [original, 'aurora']);
      await client.end();
    }
  });

  it('a bonus played on process A while process B forfeits it: every round runs before or after the forfeit, the ledger is sound and the bonus account matches (issue 13)', async () => {
    const login = `bonus-${randomBytes(4).toString('hex')}@example.com`;
    const registered = await post(a, 'auth.register', { login, password: 'Secret123', terms: '1' });
    const session = cookiePair(registered, 'sid') ?? '';
    const granted = (await (await post(a, 'campaigns.activateOffer', { promo_code: 'WELCOME10' }, session)).json()) as {
      data: { bonus_id: number };
    };
    const bonusId = granted.data.bonus_id;
    expect(bonusId).toBeGreaterThan(0);
    const spin = (server: ServerProcess | undefined, index: number) =>
      post(
        server,
        'games.play',
        { sysname: 'aurora-fortune', mode: 'real', bet: '{"stake":"0.50"}', request_id: `mp-${index}` },
        session,
      );
    // Process B plays bonus money the promo code activated through process A.
    const first = (await (await spin(b, 100)).json()) as { data?: { bonus_balance?: { amount: string } } };
    expect(first.data?.bonus_balance?.amount).toBeDefined();
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, (_, index) => spin(index % 2 === 0 ? a : b, index)),
      post(b, 'bonuses.remove', { bonus_id: String(bonusId) }, session),
    ]);
    // Rounds after the forfeit find neither real nor bonus money: refused, never a server error.
    expect(answers.every((answer) => answer.status < 500)).toBe(true);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const bonus = await client.query('SELECT status, balance_minor FROM bonuses WHERE id = $1', [bonusId]);
      expect(bonus.rows[0]).toMatchObject({ status: 'forfeited', balance_minor: '0' });
      const account = await client.query(
        "SELECT coalesce(sum(balance_minor), 0)::text AS total FROM ledger_accounts WHERE owner_kind = 'player' AND type = 'bonus' AND user_id = (SELECT user_id FROM bonuses WHERE id = $1)",
        [bonusId],
      );
      expect(account.rows[0]?.total).toBe('0');
    } finally {
      await client.end();
    }
    const handle = await openDatabase({ url: database.url, poolSize: 1 });
    try {
      const report = await checkLedger(handle.db);
      expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
    } finally {
      await handle.close();
    }
  });
});
