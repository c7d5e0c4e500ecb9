/**
 * Every module's background jobs by kind, for the worker that main.ts and dev.ts start (and for
 * tests that run the queue by hand). `fetchInternal` is the app's own fetch: in-process
 * services such as the sandbox PSP reach our HTTP surface through it, Host header and all.
 */
import type { JobHandlers } from './modules/jobs';
import { RESTORE_JOB, sendRestoreLinkJob } from './modules/auth';
import { CASHBACK_PERIOD_JOB } from './modules/cashbacks';
import type { Services } from './services';

type Fetch = (request: Request) => Response | Promise<Response>;

export function createJobHandlers(services: Services, fetchInternal: Fetch): JobHandlers {
  return {
    ...services.payments.jobHandlers(fetchInternal),
    [RESTORE_JOB]: sendRestoreLinkJob(services),
    'cashier.reconcile': async () => {
      await services.cashier.reconcileStale();
    },
    'game-history.export': services.gameHistory.exportJob,
    'games.settleAbandoned': async () => {
      await services.statefulRounds.settleAbandoned();
    },
    'loyalty.accrue': async () => {
      await services.loyalty.accrue();
    },
    'bonuses.expire': async () => {
      await services.bonuses.expireDue();
    },
    'sportsbook.pruneFeedMessages': async () => {
      await services.sportsbook.pruneFeedMessages();
    },
    'cashbacks.computeDue': async () => {
      await services.cashbacks.computeDue();
    },
    [CASHBACK_PERIOD_JOB]: (payload) => services.cashbacks.computePeriodJob(payload),
  };
}
