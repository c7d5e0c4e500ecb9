/** Starts the feed simulator as a child process (issue 14: `npm start` runs the demo feed beside the site). */
import { startChildService, type ChildService } from '../../../child-service';

export type SimulatorProcess = ChildService;

export interface SimulatorProcessOptions {
  /** The simulator's entry: build/feed-simulator/main.js, or server/feed-simulator/main.ts with tsx. */
  entry: string;
  /** Its FEED_* settings (the token, the speed, …); the port is chosen here. */
  env: Readonly<Record<string, string>>;
  execArgv?: string[];
  startTimeoutMs?: number;
}

export function startSimulatorProcess(options: SimulatorProcessOptions): Promise<SimulatorProcess> {
  return startChildService({ ...options, what: 'the feed simulator', hostVariable: 'FEED_HOST', portVariable: 'FEED_PORT' });
}
