import type { RequestIdentity } from '../api/define';
import type { ParamsRequest } from '../api/params';
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
    /** The body of a request that may carry one, limited to the site's maximum (request-body.ts). */
    paramsRequest: ParamsRequest | undefined;
  };
}
