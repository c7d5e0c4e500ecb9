/**
 * Starts the demo aggregator as a child process (issue 15: `npm start` runs it beside the site,
 * over HTTP as a real aggregator). Used by the site's boot, the tests and the bench, never by the
 * aggregator itself.
 */
import { startChildService, type ChildService } from '../child-service';

export type AggregatorProcess = ChildService;

export interface AggregatorProcessOptions {
  /** build/game-aggregator/main.js, or server/game-aggregator/main.ts with tsx. */
  entry: string;
  /** Its AGGREGATOR_* settings; the host and port are chosen here. */
  env?: Readonly<Record<string, string>>;
  execArgv?: string[];
  startTimeoutMs?: number;
}

export function startAggregatorProcess(options: AggregatorProcessOptions): Promise<AggregatorProcess> {
  return startChildService({
    ...options,
    what: 'the game aggregator',
    hostVariable: 'AGGREGATOR_HOST',
    portVariable: 'AGGREGATOR_PORT',
  });
}
