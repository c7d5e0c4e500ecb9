/** Fixed-window rate limits kept in the database, shared by every process. */
export { createRateLimitService, type Limit, type RateLimitService } from './service';
