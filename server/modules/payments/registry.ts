/**
 * The payment providers this process can talk to, by name. The cashier picks one per payment
 * method (content's `provider` field); the webhook route picks one per `/psp/{name}/webhook`.
 */
import type { Database } from '../../db/client';
import type { JobHandlers, JobService } from '../jobs';
import type { PaymentProvider } from './provider';
import { createSandboxPsp } from './sandbox/service';

type Fetch = (request: Request) => Response | Promise<Response>;

export interface PaymentProviderDeps {
  db: Database;
  jobs: JobService;
  /** A site's settings object, or undefined for an unknown site. */
  siteSettings: (siteId: string) => Promise<Record<string, unknown> | undefined>;
  /**
   * The sandbox's webhook secret of a site, or undefined where the sandbox may not act (a site
   * not marked demo): from the site secrets, never from the site's content.
   */
  sandboxSecret: (siteId: string) => Promise<string | undefined>;
}

/** The sandbox's view of a site: its settings with the trusted secret in place of anything content says. */
async function sandboxSiteSettings(deps: PaymentProviderDeps, siteId: string): Promise<Record<string, unknown> | undefined> {
  const [settings, secret] = await Promise.all([deps.siteSettings(siteId), deps.sandboxSecret(siteId)]);
  if (!settings || !secret) return undefined;
  const payments = (settings.payments ?? {}) as { sandbox?: Record<string, unknown> };
  return { ...settings, payments: { ...payments, sandbox: { ...payments.sandbox, secret } } };
}

export function createPaymentProviders(deps: PaymentProviderDeps) {
  const sandbox = createSandboxPsp({ db: deps.db, jobs: deps.jobs, siteSettings: (siteId) => sandboxSiteSettings(deps, siteId) });
  const providers = new Map<string, PaymentProvider>([[sandbox.name, sandbox]]);

  return {
    /** The built-in sandbox, with its hosted-page operations beside the adapter. */
    sandbox,
    /** By name; a test may put a fake in place of a provider. */
    providers,
    /** The provider called `name`, or undefined when there is none. */
    providerFor(name: string): PaymentProvider | undefined {
      return providers.get(name);
    },
    names(): string[] {
      return [...providers.keys()];
    },
    /** Background work of every provider (settlements, notification deliveries). */
    jobHandlers(fetchInternal: Fetch): JobHandlers {
      return { ...sandbox.jobHandlers(fetchInternal) };
    },
  };
}

export type PaymentProviders = ReturnType<typeof createPaymentProviders>;
