/**
 * Issue 11: auth.restore answered faster for unknown logins. Now the request does the same steps
 * for every login (the rate limits and one queued job) and the job does the lookup and the
 * message, so neither the answer nor the work behind it tells a registered login from an unknown
 * one. Steps are compared, never times (bench/restore-timing.ts measures those).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { Browser, lastMessageTo, signedInPlayer, uniqueEmail } from '../../../test/player';
import { RESTORE_JOB, sendRestoreLinkJob } from './recovery-methods';

type Recorded = string[];

/** Records, in order, the service calls the request path makes that could differ with the login. */
function recordSteps(app: TestApp): { steps: Recorded; stop: () => void } {
  const steps: Recorded = [];
  const restores: (() => void)[] = [];
  const watched = {
    accounts: ['findUserByLogin', 'findUser'],
    oneTimeSecrets: ['issueResetToken'],
    messaging: ['send'],
    content: ['getTranslations'],
    rateLimits: ['consume', 'consumeAll'],
    jobs: ['enqueue'],
  } as const;
  for (const [serviceName, methods] of Object.entries(watched)) {
    const service = app.services[serviceName as keyof typeof watched] as unknown as Record<
      string,
      (...args: unknown[]) => unknown
    >;
    for (const method of methods) {
      const original = service[method];
      if (!original) continue;
      service[method] = (...args: unknown[]) => {
        steps.push(`${serviceName}.${method}`);
        return original.apply(service, args);
      };
      restores.push(() => {
        service[method] = original;
      });
    }
  }
  return { steps, stop: () => restores.forEach((restore) => restore()) };
}

describe('auth.restore does the same work for every login (issue 11)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('pglite');
  });
  afterAll(() => app?.close());

  async function restoreSteps(login: string): Promise<{ steps: Recorded; data: unknown }> {
    const recording = recordSteps(app);
    try {
      const answer = await new Browser(app).call('auth.restore', { login });
      return { steps: recording.steps, data: answer.json.data };
    } finally {
      recording.stop();
    }
  }

  it('a registered login and an unknown one take the same steps and get the same answer', async () => {
    const { login } = await signedInPlayer(app);
    const known = await restoreSteps(login);
    const unknown = await restoreSteps(uniqueEmail());
    expect(known.data).toBe(1);
    expect(unknown).toEqual(known);
    expect(known.steps).toEqual(['rateLimits.consumeAll', 'jobs.enqueue']);
  });

  it('the queued job sends the link to a registered login and nothing to an unknown one', async () => {
    const { login } = await signedInPlayer(app);
    const stranger = uniqueEmail();
    await new Browser(app).call('auth.restore', { login });
    await new Browser(app).call('auth.restore', { login: stranger });
    const run = await app.services.jobs.drain({ [RESTORE_JOB]: sendRestoreLinkJob(app.services) });
    expect(run.done).toBeGreaterThanOrEqual(2);
    expect((await lastMessageTo(app, login))?.body).toMatch(/reset_token=/);
    expect(await lastMessageTo(app, stranger)).toBeUndefined();
  });
});
