/**
 * The API's own lane through Node's HTTP server (issue 12): a request for /api/… goes from Node's
 * request straight to answerApiCall (api/dispatcher.ts) and its answer straight to Node's response,
 * without the Hono app's web Request, middleware chain and web Response, which cost an API call
 * about half of its server CPU. Everything else, and any /api/ request whose address Node's
 * adapter would have to judge (no plain Host, a backslash in the path, an absolute target), goes
 * to the Hono app as before.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createServer, type IncomingMessage, type RequestListener, type ServerOptions, type ServerResponse } from 'node:http';
import { answerApiCall, type ApiOptions, type ApiReply, type ApiRequest } from '../api/dispatcher';
import { isFromTrustedProxy, peerAddress } from './client-address';
import { forwardedOrigin, isPlainHost, withForwardedOrigin } from './forwarded';
import { CLIENT_CLOSED_REQUEST, recordAnswer, type Metrics } from './metrics';
import { nodeParamsRequest } from './request-body';
import { nodeHeader } from './request-headers';

export interface ApiLaneOptions extends ApiOptions {
  metrics: Metrics;
}

/**
 * The site over Node's HTTP server as production serves it: API calls down the lane, everything
 * else to the app, which reads the public origin a trusted proxy forwarded.
 */
export function serveSite(
  app: { fetch: (request: Request, env: unknown) => Response | Promise<Response> },
  options: ApiLaneOptions,
  listen: { port: number; hostname: string },
  onListening?: (address: AddressInfo) => void,
) {
  return serve(
    {
      fetch: (request, env) => app.fetch(withForwardedOrigin(request, isFromTrustedProxy(options.proxy, peerAddress(env))), env),
      port: listen.port,
      hostname: listen.hostname,
      createServer: withApiLane(options),
    },
    onListening,
  );
}

/**
 * Node's createServer for @hono/node-server's serve(): the server it makes sends API requests down
 * the lane and the rest to the Hono app's listener.
 */
export function withApiLane(options: ApiLaneOptions): typeof createServer {
  const createLaneServer = (serverOptions: ServerOptions, appListener: RequestListener) =>
    createServer(serverOptions, (incoming, outgoing) => {
      const request = laneRequest(incoming, options);
      if (request) void serveApiCall(request, outgoing, options);
      else appListener(incoming, outgoing);
    });
  // serve() always calls it as createServer(serverOptions, listener), the one overload made here.
  return createLaneServer as typeof createServer;
}

/**
 * The request as the dispatcher reads it (behind a trusted proxy, with the public scheme and host it
 * forwarded), or undefined when it is no API request or its address is one for Hono's adapter to
 * judge: no plain Host, a backslash in the path, a host the address would not keep as it is.
 */
function laneRequest(incoming: IncomingMessage, options: ApiLaneOptions): ApiRequest | undefined {
  const target = incoming.url ?? '';
  const ownHost = incoming.headers.host;
  if (!target.startsWith('/api/') || target.includes('\\') || ownHost === undefined || !isPlainHost(ownHost)) return undefined;
  const peer = peerAddress({ incoming });
  const header = (name: Lowercase<string>) => nodeHeader(incoming, name);
  const forwarded = isFromTrustedProxy(options.proxy, peer) ? forwardedOrigin(header) : {};
  const scheme = forwarded.proto ?? ((incoming.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');
  const host = forwarded.host ?? ownHost;
  let url: URL;
  try {
    url = new URL(`${scheme}://${host}${target}`);
  } catch {
    return undefined;
  }
  if (url.hostname.length !== host.length && url.hostname !== host.replace(/:\d+$/, '')) return undefined;
  return {
    method: incoming.method ?? 'GET',
    url,
    header: forwarded.host === undefined ? header : (name) => (name === 'host' ? host : header(name)),
    peer,
    body: () => nodeParamsRequest(incoming, options.maxBodyBytes),
  };
}

async function serveApiCall(request: ApiRequest, outgoing: ServerResponse, options: ApiLaneOptions): Promise<void> {
  const started = performance.now();
  let status: number;
  try {
    const reply = await answerApiCall(request, options);
    // A client that left before its answer: nobody gets one, and it is no error of ours (metrics.ts).
    status = outgoing.destroyed ? CLIENT_CLOSED_REQUEST : reply.status;
    if (!outgoing.destroyed) writeReply(outgoing, reply);
  } catch (error) {
    // answerApiCall answers every failure of a call; this is one in writing the answer.
    options.logger.error({ err: error, path: request.url.pathname }, 'api answer failed');
    status = 500;
    outgoing.destroy();
  }
  recordAnswer(options.metrics, options.logger, {
    requestId: request.header('x-request-id'),
    method: request.method,
    path: request.url.pathname,
    status,
    durationMs: performance.now() - started,
  });
}

/** Headers and body in one write: Node joins them when end() comes with the body before any header went out. */
function writeReply(outgoing: ServerResponse, reply: ApiReply): void {
  reply.headers.push('content-length', String(Buffer.byteLength(reply.body)));
  outgoing.writeHead(reply.status, reply.headers);
  outgoing.end(reply.body);
}
