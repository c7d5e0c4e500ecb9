/**
 * What bench/chaos.ts runs its traffic on: a private PostgreSQL cluster it may restart (initdb
 * into a temporary folder, a free port on 127.0.0.1), or a scratch database on a shared server
 * when no cluster can be made; and production server processes (npm run build) it can SIGKILL
 * and start again on the same port, with their memory read from /proc.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminQuery, withDatabaseName } from './database-bench';
import { freePort } from '../test/free-port';

export { freePort };

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const MAIN = join(ROOT, 'build', 'server', 'main.js');
const DATABASE = 'chaos';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ChaosDatabase {
  url: string;
  /** Where it lives, for the report. */
  description: string;
  /** Restarts PostgreSQL (immediate stop: a crash for the clients); undefined when this database cannot be restarted. */
  restart?: () => Promise<void>;
  remove(): Promise<void>;
}

/** The command line that runs a PostgreSQL binary as the cluster's owner: `postgres` when we are root (initdb refuses root). */
function asOwner(binary: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args];
}

/**
 * Runs it without blocking the traffic meanwhile. Every pg_ctl start names the log file: a
 * postmaster started without one would keep our output pipe open and this would never return.
 */
async function runAsOwner(binary: string, args: string[]): Promise<void> {
  const [command, commandArgs] = asOwner(binary, args);
  await promisify(execFile)(command, commandArgs, { encoding: 'utf8' });
}

/** The folder of initdb and pg_ctl: PG_BIN, else pg_config's, else Debian's PostgreSQL 15. */
function postgresBinaries(): string | undefined {
  const candidates = [process.env.PG_BIN, '/usr/lib/postgresql/15/bin'];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {
    // no pg_config on the path
  }
  return candidates.find((dir) => dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

/** A cluster of our own: initdb, start on a free port bound to 127.0.0.1, one database. */
export async function startPrivateCluster(): Promise<ChaosDatabase | undefined> {
  const bin = postgresBinaries();
  if (!bin) return undefined;
  const folder = mkdtempSync(join(tmpdir(), 'chaos-pg-'));
  const data = join(folder, 'data');
  try {
    if (process.getuid?.() === 0) {
      const owner = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      chownSync(folder, owner, owner);
    }
    await runAsOwner(join(bin, 'initdb'), [
      '-D',
      data,
      '-U',
      'postgres',
      '-A',
      'trust',
      '--no-sync',
      '-E',
      'UTF8',
      '--no-locale',
    ]);
    const port = await freePort();
    // fsync off: a restart here stops PostgreSQL, not the machine, so the OS keeps every write.
    const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${folder} -c fsync=off -c max_connections=200`;
    const log = join(folder, 'server.log');
    await runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-w', '-o', options, 'start']);
    const serverUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
    await adminQuery(serverUrl, `CREATE DATABASE ${DATABASE}`);
    return {
      url: withDatabaseName(serverUrl, DATABASE),
      description: `private PostgreSQL cluster on 127.0.0.1:${port} (${bin})`,
      async restart() {
        await runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-m', 'immediate', '-w', '-o', options, 'restart']);
      },
      async remove() {
        try {
          await runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
        } finally {
          rmSync(folder, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

/** The fallback: a scratch database on a shared server, which we must never restart. */
export async function scratchDatabase(serverUrl: string): Promise<ChaosDatabase> {
  const name = `chaos_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  return {
    url: withDatabaseName(serverUrl, name),
    description: `scratch database ${name} on the shared server (NOT restarted: it is shared)`,
    async remove() {
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

export interface ServerProcess {
  name: string;
  port: number;
  baseUrl: string;
  child?: ChildProcess;
  /** Exits we did not cause (not our SIGKILL, not the final stop), with the output's last lines. */
  unexpectedExits: string[];
  starts: number;
  output: string[];
  isStopping: boolean;
  /** Set while we kill it on purpose. */
  isBeingKilled: boolean;
  /** Running and healthy: what a load balancer's health check would say. */
  isUp: boolean;
  /** When a process of it last died (killed or on its own): jobs it had claimed wait out their lease. */
  lastDeathAt: number;
}

export function newServer(name: string, port: number): ServerProcess {
  return {
    name,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    unexpectedExits: [],
    starts: 0,
    output: [],
    isStopping: false,
    isBeingKilled: false,
    lastDeathAt: 0,
    isUp: false,
  };
}

/** Starts (or starts again) a production server on its port; one that dies on its own is logged and started again. */
export async function startServer(server: ServerProcess, env: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(server.port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.child = child;
  server.starts += 1;
  const keep = (chunk: Buffer) => {
    server.output.push(chunk.toString());
    if (server.output.length > 200) server.output.splice(0, server.output.length - 200);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.once('exit', (code, signal) => {
    server.lastDeathAt = Date.now();
    server.isUp = false;
    if (server.isStopping || server.isBeingKilled || server.child !== child) return;
    server.unexpectedExits.push(`${server.name} exited (code ${code}, signal ${signal}): ${server.output.join('').slice(-600)}`);
    // It keeps serving the run: started again as an operator's supervisor would.
    void sleep(500).then(() => (server.isStopping ? undefined : startServer(server, env)));
  });
  await waitForHealth(server, child);
  server.isUp = child.exitCode === null && child.signalCode === null;
}

async function waitForHealth(server: ServerProcess, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      if ((await fetch(`${server.baseUrl}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${server.name} did not become healthy:\n${server.output.join('').slice(-2000)}`);
}

/** SIGKILL mid-run, then the same process started again on the same port (the PSP's notification URLs stay valid). */
export async function killAndRestart(server: ServerProcess, env: Record<string, string>): Promise<void> {
  const child = server.child;
  if (!child) return;
  server.isBeingKilled = true;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  server.isBeingKilled = false;
  await startServer(server, env);
}

export async function stopServer(server: ServerProcess): Promise<void> {
  server.isStopping = true;
  const child = server.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Resident memory of the server's process in MiB (VmRSS of /proc/PID/status), or undefined when it is not running. */
export function residentMiB(server: ServerProcess): number | undefined {
  const pid = server.child?.pid;
  if (!pid || server.child?.exitCode !== null) return undefined;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}
