/** Fixed-window rate limits and progressive slowing, kept in the database and shared by every process. */
export {
  createRateLimitService,
  slowingWaitMs,
  tooManyAttempts,
  type Limit,
  type RateLimitService,
  type SlowingPolicy,
  type SlowingVerdict,
} from './service';
