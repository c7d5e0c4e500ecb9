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
    /** The security headers and policy every answer carries, prepared before the route (answer-headers.ts). */
    answerHeaders: Readonly<Record<string, string>> | undefined;
    /** The route sent its answer with every header it needs: the middlewares leave it alone (answer-headers.ts). */
    isAnswerComplete: boolean | undefined;
    /** A header was set through Hono before the answer was made (the visitor cookie): only Hono's answer builders carry it over. */
    hasPreparedHeaders: boolean | undefined;
  };
}
