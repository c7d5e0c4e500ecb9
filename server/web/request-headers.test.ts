/**
 * Request headers from Node's request (issue 12): the same values the web request gives, without
 * building its Headers, and the rewritten headers once a trusted proxy's forwarded host applies.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withForwardedOrigin } from './forwarded';
import { requestCookie, requestHeader } from './request-headers';
import { isWebHeadersBuilt } from '../../test/node-request';

const NAMES = ['host', 'user-agent', 'x-forwarded-for', 'accept-language', 'x-absent'] as const;

function readerApp() {
  const app = new Hono();
  app.get('/read', (c) => {
    const read = Object.fromEntries(NAMES.map((name) => [name, requestHeader(c, name) ?? null]));
    const cookies = {
      sid: requestCookie(c, 'sid') ?? null,
      vid: requestCookie(c, 'vid') ?? null,
      none: requestCookie(c, 'none') ?? null,
    };
    const isBuilt = isWebHeadersBuilt(c.req.raw);
    // Only now the web request's own view, to compare with.
    const web = Object.fromEntries(NAMES.map((name) => [name, c.req.header(name) ?? null]));
    return c.json({ read, cookies, isBuilt, web });
  });
  return app;
}

interface ReaderAnswer {
  read: Record<string, string | null>;
  cookies: Record<string, string | null>;
  isBuilt: boolean;
  web: Record<string, string | null>;
}

/** A GET with these raw header lines (repeated names allowed), as a client would send them. */
function get(port: number, lines: [string, string][]): Promise<ReaderAnswer> {
  return new Promise((resolve, reject) => {
    // Raw header lines: Node then adds no Host of its own.
    const headers = [['Host', `127.0.0.1:${port}`], ...lines].flat();
    const request = httpRequest({ host: '127.0.0.1', port, path: '/read', method: 'GET', headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        try {
          resolve(JSON.parse(text) as ReaderAnswer);
        } catch {
          reject(new Error(`${response.statusCode}: ${text}`));
        }
      });
    });
    request.on('error', reject);
    request.end();
  });
}

describe('request headers read from Node (issue 12)', () => {
  let plain: ServerType;
  let forwarded: ServerType;
  const portOf = (server: ServerType) => (server.address() as AddressInfo).port;
  beforeAll(async () => {
    const app = readerApp();
    plain = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    // As server/main.ts does behind a trusted proxy: the forwarded host replaces the request's.
    forwarded = serve({
      fetch: (request, env) => app.fetch(withForwardedOrigin(request, true), env),
      port: 0,
      hostname: '127.0.0.1',
    });
    await Promise.all([plain, forwarded].map((server) => new Promise((resolve) => server.once('listening', resolve))));
  });
  afterAll(async () => {
    await Promise.all([plain, forwarded].map((server) => new Promise<void>((resolve) => server?.close(() => resolve()))));
  });

  it('gives what the web request gives, repeated headers joined, without building its Headers', async () => {
    const answer = await get(portOf(plain), [
      ['User-Agent', 'Browser/1.0'],
      ['X-Forwarded-For', '203.0.113.7'],
      ['X-Forwarded-For', '198.51.100.2'],
      ['Accept-Language', 'it-IT,it;q=0.9'],
      ['Cookie', 'vid=visitor-0123456789abcdef; sid=session-token-0123456789'],
    ]);
    expect(answer.isBuilt).toBe(false);
    expect(answer.read).toEqual(answer.web);
    expect(answer.read['x-forwarded-for']).toBe('203.0.113.7, 198.51.100.2');
    expect(answer.read['x-absent']).toBeNull();
    expect(answer.cookies).toEqual({ sid: 'session-token-0123456789', vid: 'visitor-0123456789abcdef', none: null });
  });

  it('reads the rewritten host once a trusted proxy’s forwarded host applies', async () => {
    const answer = await get(portOf(forwarded), [
      ['X-Forwarded-Host', 'casino.example'],
      ['Cookie', 'sid=session-token-0123456789'],
    ]);
    expect(answer.read.host).toBe('casino.example');
    expect(answer.read).toEqual(answer.web);
    expect(answer.cookies.sid).toBe('session-token-0123456789');
  });
});
