import type { RequestIdentity } from '../api/define';
import type { Site } from '../modules/sites';
import type { Services } from '../services';

/** Values every request carries through the Hono app, set by the first middleware. */
export interface AppEnv {
  Variables: {
    site: Site;
    identity: RequestIdentity;
    services: Services;
    requestId: string;
    /** This answer's Content-Security-Policy nonce (server/web/csp.ts): every inline script and style carries it. */
    cspNonce: string;
  };
}
