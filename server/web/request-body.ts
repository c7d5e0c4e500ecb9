/**
 * The body of an API request, limited to the site's maximum and read as readParams asks for it.
 *
 * Under Node's HTTP server the body is read from Node's own request: building the web Request,
 * its stream and undici's body reader cost 0.05 ms of CPU per POST, more than twice the reading
 * itself (issue 12: every real-money round and every cashier call is a POST). The answers are
 * the web Request's, byte for byte: the text is decoded as Request.text() decodes it (UTF-8, its
 * byte order mark dropped); urlencoded fields as Request.formData() parses them (UTF-8 with the
 * byte order mark kept, as undici does); any other form (multipart, or a content type undici
 * would refuse) goes through undici's own parser. request-body.test.ts holds both paths to the
 * same answers over a real listener.
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { ApiError } from '#common/errors';
import type { ParamsRequest } from '../api/params';
import type { AppEnv } from './app-env';
import { nodeHeader, requestHeader } from './request-headers';

/** The content types whose essence (RFC 9110 media type before its parameters) is urlencoded form data. */
const URLENCODED = /^[\t\n\r ]*application\/x-www-form-urlencoded[\t\n\r ]*(?:;|$)/i;

/** A body longer than the route takes: the API's InvalidRequestException, with HTTP 413. */
export class RequestBodyTooLarge extends ApiError {
  constructor() {
    super('InvalidRequestException', 'The request body is too large', undefined, 413);
  }
}

/** Whether the request declares a body longer than maxBytes (a streamed one is counted as it is read). */
function declaresMoreThan(c: Context<AppEnv>, maxBytes: number): boolean {
  return declaresBodyOver((name) => requestHeader(c, name), maxBytes);
}

/** Whether a request's headers declare a body longer than maxBytes (a streamed one is counted as it is read). */
export function declaresBodyOver(header: (name: Lowercase<string>) => string | undefined, maxBytes: number): boolean {
  const declared = header('content-length');
  return declared !== undefined && header('transfer-encoding') === undefined && Number.parseInt(declared, 10) > maxBytes;
}

/**
 * The body's bytes, at most maxBytes: a declared length over them is refused unread and a streamed
 * body once it passes them (RequestBodyTooLarge). From Node's request while nothing else has read it.
 */
export async function readBodyBytes(c: Context<AppEnv>, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  if (declaresMoreThan(c, maxBytes)) throw new RequestBodyTooLarge();
  const incoming = unreadNodeRequest(c);
  return incoming ? readNodeBody(incoming, maxBytes) : readWebBody(c.req.raw, maxBytes);
}

/** Request.text()'s decoding: UTF-8, the byte order mark dropped. Stateless when not streaming, so shared. */
const UTF8 = new TextDecoder();

/** The body as text, decoded as Request.text() decodes it (UTF-8, the byte order mark dropped). */
export async function readBodyText(c: Context<AppEnv>, maxBytes: number): Promise<string> {
  return UTF8.decode(await readBodyBytes(c, maxBytes));
}

export function paramsRequestOf(c: Context<AppEnv>, maxBytes: number): ParamsRequest {
  return bodyParamsRequest(c.req.method, requestHeader(c, 'content-type'), () => readBodyBytes(c, maxBytes));
}

/**
 * The parameters' reader of a request Node's server received, with the body at most maxBytes (the
 * API's lane, api-lane.ts, which has no Hono context): the same answers as paramsRequestOf.
 */
export function nodeParamsRequest(incoming: IncomingMessage, maxBytes: number): ParamsRequest {
  const header = (name: Lowercase<string>) => nodeHeader(incoming, name);
  return bodyParamsRequest(incoming.method ?? 'GET', header('content-type'), async () => {
    if (declaresBodyOver(header, maxBytes)) throw new RequestBodyTooLarge();
    return readNodeBody(incoming, maxBytes);
  });
}

function bodyParamsRequest(
  method: string,
  contentType: string | undefined,
  readBytes: () => Promise<Uint8Array<ArrayBuffer>>,
): ParamsRequest {
  return {
    method,
    contentType: () => contentType,
    text: async () => UTF8.decode(await readBytes()),
    formData: async () => {
      if (contentType !== undefined && URLENCODED.test(contentType)) {
        return new URLSearchParams(new TextDecoder('utf-8', { ignoreBOM: true }).decode(await readBytes()));
      }
      // Multipart, or a type undici refuses (TypeError, which readParams reports): undici decides.
      const headers = contentType === undefined ? undefined : { 'content-type': contentType };
      return new Response(await readBytes(), { headers }).formData();
    },
  };
}

/**
 * Node's request when the server is Node's and nothing has started reading its body: once the web
 * Request's stream has pulled from it, that stream owns the body.
 */
function unreadNodeRequest(c: Context<AppEnv>): IncomingMessage | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming || typeof incoming.on !== 'function') return undefined;
  return incoming.readableFlowing === null && !incoming.readableDidRead ? incoming : undefined;
}

/** The body's bytes; a client that leaves before its body ends fails the read rather than leave it waiting. */
function readNodeBody(incoming: IncomingMessage, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    if (incoming.destroyed) {
      reject(new Error('The request closed before its body ended'));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        // The rest is left to the server, which drains or closes an unread body after the answer.
        incoming.pause();
        stop();
        reject(new RequestBodyTooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const onClose = () => onError(new Error('The request closed before its body ended'));
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

async function readWebBody(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new RequestBodyTooLarge();
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks, size);
}
