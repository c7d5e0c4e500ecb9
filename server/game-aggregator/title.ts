/** A title the demo aggregator hosts. Amounts are integer minor units (bigint); views are JSON-safe. */
export type Rng = () => number; // uniform in [0, 1), from node:crypto

export interface RoundStep {
  /** Money the player stakes at this step (0n when none). */
  stakeMinor: bigint;
  /** Money paid to the player at this step (0n when none). */
  winMinor: bigint;
  /** True when the round ends with this step. */
  done: boolean;
  /** What the client draws (JSON-safe, no bigint). */
  view: unknown;
  /** State the aggregator keeps until the round's next step (JSON-safe). */
  state?: unknown;
}

/** A title each player plays on their own (slots, plinko, keno, baccarat, three-card poker). */
export interface PlayerTitle {
  id: string;
  provider: 'redfox' | 'northlight' | 'livewave';
  kind: 'slot' | 'cluster' | 'plinko' | 'keno' | 'baccarat' | 'three-card-poker';
  /** Starts a round from the client's JSON input (stake and choice); undefined when the input is invalid. */
  start(input: unknown, rng: Rng): RoundStep | undefined;
  /** Continues an unfinished round with the player's action; undefined when the action is invalid. */
  act?(state: unknown, input: unknown, rng: Rng): RoundStep | undefined;
}

/** A live-dealer-style table: one shared round for every seated player. */
export interface SharedTable {
  id: string;
  provider: 'livewave';
  kind: 'live-table';
  bettingMs: number;
  resultMs: number;
  spots: readonly string[];
  /** Validates one bet (spot and stake); undefined when invalid. */
  parseBet(input: unknown): { spot: string; stakeMinor: bigint } | undefined;
  /** Draws the round's shared outcome (JSON-safe). */
  draw(rng: Rng): unknown;
  /** What one bet returns given the outcome (stake included when it wins; 0n when it loses). */
  settle(bet: { spot: string; stakeMinor: bigint }, outcome: unknown): bigint;
}
