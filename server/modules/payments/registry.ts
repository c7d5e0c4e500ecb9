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
}

export function createPaymentProviders(deps: PaymentProviderDeps) {
  const sandbox = createSandboxPsp(deps);
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
