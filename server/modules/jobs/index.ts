/** The PostgreSQL-backed job queue. */
export {
  createJobService,
  DEFAULT_MAX_ATTEMPTS,
  type EnqueueOptions,
  type JobHandler,
  type JobHandlers,
  type JobInfo,
  type JobServiceOptions,
  type JobService,
  type RunDueOptions,
  type RunDueResult,
  type WorkerOptions,
} from './service';
// Pure helper: the retry schedule, so callers and tests can tell when a failed job runs again.
export { jobBackoffMs } from './service';
