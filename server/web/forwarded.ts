/**
 * Behind a trusted load balancer the request arrives as plain http to this process; the public
 * scheme and host come in X-Forwarded-Proto / X-Forwarded-Host. Rewriting the request once at the
 * edge makes every link we build (canonical, sitemap, e-mails) use the public origin.
 */
const HOST_PATTERN = /^[a-z0-9.-]+(:\d{1,5})?$/i;

/** The public scheme and host a trusted proxy forwarded, each when it gave a usable one. */
export function forwardedOrigin(header: (name: Lowercase<string>) => string | null | undefined): {
  proto?: 'http' | 'https';
  host?: string;
} {
  const proto = header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  const host = header('x-forwarded-host')?.split(',')[0]?.trim();
  return {
    proto: proto === 'https' || proto === 'http' ? proto : undefined,
    host: host && isPlainHost(host) ? host : undefined,
  };
}

/** A host (and port) as a Host header may name one: letters, digits, dots and dashes (no IPv6 literal). */
export function isPlainHost(host: string): boolean {
  return HOST_PATTERN.test(host);
}

/** Believes the headers only on a request that came straight from a trusted proxy (client-address.ts). */
export function withForwardedOrigin(request: Request, isFromTrustedProxy: boolean): Request {
  if (!isFromTrustedProxy) return request;
  const { proto: nextProto, host: nextHost } = forwardedOrigin((name) => request.headers.get(name));
  const url = new URL(request.url);
  if (!nextProto && !nextHost) return request;
  if (nextProto) url.protocol = `${nextProto}:`;
  const headers = new Headers(request.headers);
  if (nextHost) {
    url.host = nextHost;
    if (!nextHost.includes(':')) url.port = '';
    headers.set('host', nextHost);
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const rewritten = new Request(url, {
    method: request.method,
    headers,
    body: hasBody ? request.body : undefined,
    duplex: 'half',
    signal: request.signal,
  } as RequestInit);
  REWRITTEN.add(rewritten);
  return rewritten;
}

const REWRITTEN = new WeakSet<Request>();

/** Whether this is a request withForwardedOrigin rewrote: its headers are no longer the ones Node read. */
export function isRewrittenByForwarding(request: Request): boolean {
  return REWRITTEN.has(request);
}
