/**
 * A transaction is one connection: its queries must run one after another (issue 11: the
 * responsible-gaming service ran parallel queries on one transaction).
 */
import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import type { Executor } from '../../db/retry';
import { createResponsibleGamingService } from './service';

/** An executor whose limit rows are none: enough for limits() to ask for each period's deposits. */
function emptyExecutor(): Executor {
  const chain = { from: () => chain, where: async () => [] };
  return { select: () => chain } as unknown as Executor;
}

describe('responsible-gaming limits on a transaction (issue 11: no parallel queries on one transaction)', () => {
  it('asks for the deposits of each period one at a time, on the executor it was given', async () => {
    let inFlight = 0;
    let mostInFlight = 0;
    const executors: Executor[] = [];
    const service = createResponsibleGamingService({} as Database, {
      revokeAllSessions: async () => {},
      depositedSince: async (_userId, _since, executor) => {
        executors.push(executor);
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        return 0n;
      },
    });
    const tx = emptyExecutor();
    const limits = await service.limits(7, new Date('2026-11-22T10:00:00Z'), tx);
    expect(limits.map((limit) => limit.period).length).toBeGreaterThan(1);
    expect(mostInFlight).toBe(1);
    expect(executors.every((executor) => executor === tx)).toBe(true);
  });
});
