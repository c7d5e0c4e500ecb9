/**
 * Autoplay for the slots (issue 5 jurisdiction settings): a run of ordinary spins, one request
 * each, paced so no spin starts sooner than the site's minimum spin duration after the last, and
 * stopped by the player, by the round count, by the loss limit (net loss of the run), by the
 * single-win limit (one round paying at least it), or by the first refused spin. The limits the
 * site requires must be set before a run starts.
 */
import { useCallback, useRef, useState } from 'react';
import { amountToMinor } from '#common/money';
import type { PlayResult } from './shared';

export interface AutoplayPlan {
  rounds: number;
  /** Stop once the run has lost this much (minor units); null: no limit. */
  lossLimitMinor: bigint | null;
  /** Stop after a round that pays at least this (minor units); null: no limit. */
  singleWinLimitMinor: bigint | null;
}

export type AutoplayStop = 'done' | 'stopped' | 'lossLimit' | 'winLimit' | 'error';

export interface AutoplayState {
  isRunning: boolean;
  played: number;
  planned: number;
  /** The run's payouts less its stakes, minor units. */
  netMinor: bigint;
  stop: AutoplayStop | null;
}

const IDLE: AutoplayState = { isRunning: false, played: 0, planned: 0, netMinor: 0n, stop: null };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Why a run ends after a round, or null to go on. */
export function stopAfterRound(plan: AutoplayPlan, played: number, netMinor: bigint, payoutMinor: bigint): AutoplayStop | null {
  if (plan.singleWinLimitMinor !== null && payoutMinor >= plan.singleWinLimitMinor) return 'winLimit';
  if (plan.lossLimitMinor !== null && -netMinor >= plan.lossLimitMinor) return 'lossLimit';
  return played >= plan.rounds ? 'done' : null;
}

export function useAutoplay(spinOnce: () => Promise<PlayResult | undefined>, minSpinDurationMs: number) {
  const [state, setState] = useState<AutoplayState>(IDLE);
  const isStopAsked = useRef(false);

  const start = useCallback(
    async (plan: AutoplayPlan) => {
      isStopAsked.current = false;
      let played = 0;
      let netMinor = 0n;
      let stop: AutoplayStop | null = null;
      setState({ isRunning: true, played, planned: plan.rounds, netMinor, stop: null });
      while (stop === null) {
        if (isStopAsked.current) {
          stop = 'stopped';
          break;
        }
        const startedAt = Date.now();
        const result = await spinOnce();
        if (!result) {
          stop = 'error';
          break;
        }
        const payoutMinor = amountToMinor(result.round.payout.amount);
        played += 1;
        netMinor += payoutMinor - amountToMinor(result.round.stake.amount);
        stop = stopAfterRound(plan, played, netMinor, payoutMinor);
        setState({ isRunning: stop === null, played, planned: plan.rounds, netMinor, stop });
        if (stop === null) await sleep(Math.max(0, minSpinDurationMs - (Date.now() - startedAt)));
      }
      setState({ isRunning: false, played, planned: plan.rounds, netMinor, stop });
    },
    [spinOnce, minSpinDurationMs],
  );

  const requestStop = useCallback(() => {
    isStopAsked.current = true;
  }, []);

  return { state, start, requestStop };
}
