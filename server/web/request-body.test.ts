/**
 * Architecture §4 (a POST's parameters are its form data or JSON) and issue 12 (a POST's body is
 * read from Node's request, not through a web Request): over a real listener, readParams reads
 * every body exactly as it reads the same bytes from a web Request (the reference: what it read
 * before), errors included, and the body limit holds on the Node path as on the web path. Both
 * ways a body is read from Node are held to it: through the Hono app (paramsRequestOf) and on the
 * API's lane, which has no Hono context (nodeParamsRequest, web/api-lane.ts).
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiError } from '#common/errors';
import { readParams, webParamsRequest, type ParamsRequest } from '../api/params';
import type { AppEnv } from './app-env';
import { declaresBodyOver, nodeParamsRequest, paramsRequestOf, RequestBodyTooLarge } from './request-body';
import { requestHeader } from './request-headers';
import { isWebRequestBuilt } from '../../test/node-request';

const LIMIT = 2048;
const BOM = [0xef, 0xbb, 0xbf];

/** What readParams made of a request: its parameters, or the error it answered with. */
async function outcome(request: ParamsRequest, url: URL): Promise<unknown> {
  try {
    return { params: await readParams(request, url) };
  } catch (error) {
    return isApiError(error) ? { error: error.type, message: error.message, status: error.status } : { thrown: String(error) };
  }
}

/** Every read the echo app finished, answered or not (a client that left gets no answer). */
const finishedReads: unknown[] = [];

const TOO_LARGE = { error: new RequestBodyTooLarge().toBody() };

/** The echo through the Hono app: a declared length over the limit refused unread, as the API does. */
function echoApp() {
  const app = new Hono<AppEnv>();
  app.post('/echo', async (c) => {
    if (declaresBodyOver((name) => requestHeader(c, name), LIMIT)) return c.json(TOO_LARGE, 413);
    const read = await outcome(paramsRequestOf(c, LIMIT), new URL(c.req.url));
    finishedReads.push(read);
    return c.json({ read, isWebRequestBuilt: isWebRequestBuilt(c.req.raw) });
  });
  return app;
}

/** The same echo straight from Node's request, as the API's lane reads a body: there is no web Request at all. */
function nodeEchoServer(): Server {
  return createServer((incoming, outgoing) => {
    void (async () => {
      const header = (name: Lowercase<string>) => incoming.headers[name] as string | undefined;
      const answer = (status: number, value: unknown) => {
        outgoing.writeHead(status, { 'content-type': 'application/json' });
        outgoing.end(JSON.stringify(value));
      };
      if (declaresBodyOver(header, LIMIT)) return answer(413, TOO_LARGE);
      const read = await outcome(nodeParamsRequest(incoming, LIMIT), new URL(incoming.url ?? '/', 'http://127.0.0.1'));
      finishedReads.push(read);
      answer(200, { read, isWebRequestBuilt: false });
    })();
  });
}

/** A listening echo server of each kind, on a free port. */
const ECHO_SERVERS: [string, () => Server][] = [
  ['through the Hono app', () => serve({ fetch: echoApp().fetch, port: 0, hostname: '127.0.0.1' }) as Server],
  [
    "on the API's lane, without Hono",
    () => {
      const server = nodeEchoServer();
      server.listen(0, '127.0.0.1');
      return server;
    },
  ],
];

/** A POST of exactly these bytes and headers over the listener; chunks are sent without a Content-Length. */
function post(
  port: number,
  headers: Record<string, string>,
  body: Uint8Array | Uint8Array[],
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const chunks = Array.isArray(body) ? body : [body];
    const declared = Array.isArray(body) ? {} : { 'content-length': String(body.byteLength) };
    const sent = httpRequest(
      { host: '127.0.0.1', port, path: '/echo?locale=en&from=query', method: 'POST', headers: { ...headers, ...declared } },
      (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (part: Buffer) => parts.push(part));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, json: JSON.parse(Buffer.concat(parts).toString()) }));
      },
    );
    sent.on('error', reject);
    for (const chunk of chunks) sent.write(chunk);
    sent.end();
  });
}

const text = (value: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(value);
const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? [...text(part)] : part)));

async function multipartBody(): Promise<{ type: string; body: Uint8Array<ArrayBuffer> }> {
  const form = new FormData();
  form.set('sysname', 'dice');
  form.append('keys[]', 'a');
  form.append('keys[]', 'é');
  form.set('file', new Blob(['ignored']), 'f.txt');
  const encoded = new Request('http://127.0.0.1/', { method: 'POST', body: form });
  return { type: encoded.headers.get('content-type') ?? '', body: new Uint8Array(await encoded.arrayBuffer()) };
}

describe.each(ECHO_SERVERS)('request bodies read from Node %s (architecture §4, issue 12)', (_way, start) => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = start();
    if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const FORM = 'application/x-www-form-urlencoded';
  const cases: [string, string | undefined, Uint8Array<ArrayBuffer>][] = [
    ['a round as the site posts it', FORM, text('sysname=dice&mode=real&bet=1.00&request_id=r-1')],
    ['plus signs, escapes, repeated and [] keys', FORM, text('a=x+y%20z&a=2&keys[]=1&keys[]=2&empty=&flag')],
    ['a byte order mark (kept by form parsing)', FORM, bytes(BOM, 'a=1&b=2')],
    ['bytes that are not UTF-8', FORM, bytes('a=', [0xff, 0xfe], '&b=%FF')],
    ['a content type in capitals with a charset', 'Application/X-WWW-Form-Urlencoded; charset=utf-8', text('a=1')],
    ['space before the parameters', `${FORM} ;x=1`, text('a=1')],
    ['urlencoded only as a parameter of text/plain', `text/plain; a=${FORM}`, text('a=1')],
    ['a subtype that only begins like urlencoded', `${FORM}x`, text('a=1')],
    ['an empty form', FORM, new Uint8Array(0)],
    ['a JSON object', 'application/json', text('{"sysname":"dice","bet":{"amount":"1.00"}}')],
    ['a JSON object after a byte order mark', 'application/json; charset=utf-8', bytes(BOM, '{"a":1}')],
    ['a JSON array', 'application/json', text('[1,2]')],
    ['truncated JSON', 'application/json', text('{"a":')],
    ['JSON with bytes that are not UTF-8', 'application/json', bytes('{"a":"', [0xc3], '"}')],
    ['an empty JSON body', 'application/json', new Uint8Array(0)],
    ['a plain-text body', 'text/plain', text('a=1')],
    ['a body without a content type', undefined, text('a=1')],
    ['no body and no content type', undefined, new Uint8Array(0)],
  ];

  it.each(cases)('reads %s as the web Request does', async (_label, contentType, body) => {
    const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType };
    const url = new URL(`http://127.0.0.1:${port}/echo?locale=en&from=query`);
    const reference = await outcome(webParamsRequest(new Request(url, { method: 'POST', headers, body })), url);
    const answer = await post(port, headers, body);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ read: reference, isWebRequestBuilt: false });
  });

  it('reads a multipart form through undici, as the web Request does', async () => {
    const { type, body } = await multipartBody();
    const url = new URL(`http://127.0.0.1:${port}/echo?locale=en&from=query`);
    const reference = await outcome(
      webParamsRequest(new Request(url, { method: 'POST', headers: { 'content-type': type }, body })),
      url,
    );
    expect(reference).toEqual({ params: { from: 'query', sysname: 'dice', keys: ['a', 'é'] } });
    const answer = await post(port, { 'content-type': type }, body);
    expect(answer.json).toEqual({ read: reference, isWebRequestBuilt: false });
  });

  it('reads a body sent in chunks without a Content-Length, up to the limit inclusive', async () => {
    const prefix = 'a=';
    const whole = text(prefix + 'z'.repeat(LIMIT - prefix.length));
    const answer = await post(port, { 'content-type': FORM }, [whole.subarray(0, 1000), whole.subarray(1000)]);
    expect(answer.json).toEqual({
      read: { params: { from: 'query', a: 'z'.repeat(LIMIT - prefix.length) } },
      isWebRequestBuilt: false,
    });
  });

  it('refuses a declared length over the limit with 413 before reading', async () => {
    const answer = await post(port, { 'content-type': FORM }, text(`a=${'x'.repeat(LIMIT)}`));
    expect(answer.status).toBe(413);
    expect(answer.json).toEqual({ error: { type: 'InvalidRequestException', message: 'The request body is too large' } });
  });

  it('refuses a streamed body once it passes the limit, with 413', async () => {
    const chunk = text('x'.repeat(700));
    const answer = await post(port, { 'content-type': FORM }, [text('a='), chunk, chunk, chunk, chunk]);
    expect(answer.json).toEqual({
      read: { error: 'InvalidRequestException', message: 'The request body is too large', status: 413 },
      isWebRequestBuilt: false,
    });
  });

  it('finishes the read of a client that leaves in the middle of its body (it fails, it does not wait)', async () => {
    const before = finishedReads.length;
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${FORM}\r\nTransfer-Encoding: chunked\r\n\r\n5\r\na=123\r\n`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    const deadline = Date.now() + 2_000;
    while (finishedReads.length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(finishedReads.slice(before)).toEqual([
      { error: 'InvalidRequestException', message: 'The request body cannot be read', status: 400 },
    ]);
  });
});

describe('request bodies without Node (architecture §4)', () => {
  const FORM = 'application/x-www-form-urlencoded';
  it('holds the same limit on the web path (a request without Node behind it)', async () => {
    const app = echoApp();
    const chunk = text('y'.repeat(1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > LIMIT) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const response = await app.request('/echo', {
      method: 'POST',
      body: stream,
      headers: { 'content-type': FORM },
      duplex: 'half',
    } as RequestInit);
    expect(await response.json()).toMatchObject({ read: { status: 413, message: 'The request body is too large' } });
  });
});
