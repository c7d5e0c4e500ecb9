/**
 * Every HTTP surface, not only the product API, reads text from the address (/hit's referrer, the
 * content platform's collection, the OAuth callback's service…). A NUL there reached PostgreSQL,
 * which refused it with an error carrying the SQL: HTTP 500 (issue 11, reproducer 5). Such an
 * address is refused once, before any route reads it, with the catalogue's error naming the part.
 */
import type { Context, Next } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { invalidParameter } from '#common/parameter-errors';
import { hasHostileText } from '../api/params';

/** The query parameter (or `path`) whose decoded text holds NUL or a lone surrogate, if any. */
export function hostileAddressPart(url: URL): string | undefined {
  if (url.pathname.split('/').some((segment) => hasHostileText(decodedSegment(segment)))) return 'path';
  for (const [name, value] of url.searchParams) {
    if (hasHostileText(name)) return name.replaceAll('\u0000', '\uFFFD');
    if (hasHostileText(value)) return name;
  }
  return undefined;
}

/** A path segment as routes see it; one that is not valid percent-encoding stays as it is. */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export async function refuseHostileAddress(c: Context, next: Next): Promise<Response | void> {
  // A serialised address writes NUL as %00 and a lone surrogate as the escaped replacement character,
  // so an address without "%" decodes to nothing hostile: most requests need no parsing here (issue 12).
  if (!c.req.url.includes('%')) return next();
  const part = hostileAddressPart(new URL(c.req.url));
  if (part === undefined) return next();
  const error = invalidParameter(part);
  return c.json({ error: error.toBody() }, error.status as ContentfulStatusCode);
}
