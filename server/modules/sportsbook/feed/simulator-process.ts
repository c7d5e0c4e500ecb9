/**
 * Starts the feed simulator as a child process (issue 14: `npm start` runs the demo feed beside
 * the site, over HTTP as a real feed). The child picks a free port on 127.0.0.1 and reports its URL
 * over the IPC channel; it exits when the channel closes, so it never outlives the site.
 */
import { fork, type ChildProcess } from 'node:child_process';

export interface SimulatorProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export interface SimulatorProcessOptions {
  /** The simulator's entry: build/feed-simulator/main.js, or server/feed-simulator/main.ts with tsx. */
  entry: string;
  /** Its FEED_* settings (the token, the speed, …); the port is chosen here. */
  env: Readonly<Record<string, string>>;
  execArgv?: string[];
  startTimeoutMs?: number;
}

function waitForExit(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

export function startSimulatorProcess(options: SimulatorProcessOptions): Promise<SimulatorProcess> {
  const child = fork(options.entry, [], {
    env: { ...process.env, ...options.env, FEED_HOST: '127.0.0.1', FEED_PORT: '0' },
    execArgv: options.execArgv ?? [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error('the feed simulator did not report its URL in time'));
    }, options.startTimeoutMs ?? 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the feed simulator exited before it was up (code ${code})`));
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
