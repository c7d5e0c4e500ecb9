/**
 * The server render of a page. It differs from React Router's default entry in two things: the
 * Content-Security-Policy nonce the server made for this answer (PageLoadContext.cspNonce) goes on
 * every script React and React Router write into the document (issue 11), and the scripts that
 * hydrate the page are fetched once it has painted (paint-first.ts, issue 12).
 */
import { PassThrough } from 'node:stream';
import type { AppLoadContext, EntryContext } from 'react-router';
import { ServerRouter } from 'react-router';
import { createReadableStreamFromReadable } from '@react-router/node';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import type { PageLoadContext } from '#common/load-context';
import { CspNonceContext } from './csp-nonce';
import { paintFirstStream } from './paint-first.server';

/** How long deferred data may stream before the render gives up on it. */
export const streamTimeout = 5_000;

/** Crawlers get the whole document at once; browsers get the shell first and the rest streamed. */
function waitsForAllContent(request: Request, context: EntryContext): boolean {
  const userAgent = request.headers.get('user-agent');
  return Boolean(userAgent && isbot(userAgent)) || context.isSpaMode;
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
): Response | Promise<Response> {
  if (request.method.toUpperCase() === 'HEAD')
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  const nonce = (loadContext as unknown as PageLoadContext).cspNonce;
  let status = responseStatusCode;
  return new Promise((resolve, reject) => {
    let isShellSent = false;
    const stopTimer = setTimeout(() => abort(), streamTimeout + 1000);
    const sendShell = () => {
      isShellSent = true;
      const body = new PassThrough({
        final(done) {
          clearTimeout(stopTimer);
          done();
        },
      });
      responseHeaders.set('Content-Type', 'text/html');
      pipe(body);
      const painted = body.pipe(paintFirstStream());
      body.on('error', (error) => painted.destroy(error));
      resolve(new Response(createReadableStreamFromReadable(painted), { headers: responseHeaders, status }));
    };
    const { pipe, abort } = renderToPipeableStream(
      <CspNonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </CspNonceContext.Provider>,
      {
        nonce,
        ...(waitsForAllContent(request, routerContext) ? { onAllReady: sendShell } : { onShellReady: sendShell }),
        onShellError: reject,
        onError(error: unknown) {
          status = 500;
          // Errors before the shell reject and are logged by React Router; later ones only here.
          if (isShellSent) console.error(error);
        },
      },
    );
  });
}
