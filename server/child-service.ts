/**
 * Starts a demo service that is a separate party in real life (the odds feed simulator, the game
 * aggregator) as a child process beside the site, over HTTP like the real one. The child binds a
 * free port on 127.0.0.1 and reports its URL over the IPC channel; it exits when the channel
 * closes, so it never outlives its parent.
 */
import { fork, type ChildProcess } from 'node:child_process';

export interface ChildService {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export interface ChildServiceOptions {
  /** What it is, for error messages ("the feed simulator"). */
  what: string;
  /** Its entry: a build/…/main.js, or a server/…/main.ts run with tsx (execArgv). */
  entry: string;
  /** Its settings; the host and port variables are set here. */
  env?: Readonly<Record<string, string>>;
  /** The names of its host and port variables (FEED_HOST/FEED_PORT, …). */
  hostVariable: string;
  portVariable: string;
  execArgv?: string[];
  startTimeoutMs?: number;
}

function waitForExit(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

export function startChildService(options: ChildServiceOptions): Promise<ChildService> {
  const child = fork(options.entry, [], {
    env: { ...process.env, ...options.env, [options.hostVariable]: '127.0.0.1', [options.portVariable]: '0' },
    execArgv: options.execArgv ?? [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`${options.what} did not report its URL in time`));
    }, options.startTimeoutMs ?? 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${options.what} exited before it was up (code ${code})`));
    });
    child.on('message', (message: { type?: string; url?: string }) => {
      if (message.type !== 'listening' || !message.url) return;
      clearTimeout(timer);
      resolve({
        url: message.url,
        pid: child.pid!,
        async stop() {
          child.kill('SIGTERM');
          await waitForExit(child);
        },
      });
    });
  });
}
