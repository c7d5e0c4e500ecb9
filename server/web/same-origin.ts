/**
 * Cross-site request check for state-changing requests (architecture §4) and for the GETs that
 * change state (auth.logout, issue 11): a browser always sends Origin or Sec-Fetch-Site on a
 * cross-site POST, and every current browser sends Sec-Fetch-Site on a cross-site GET, so either
 * one naming another site refuses it. A request with neither is checked by its Referer when it has
 * one (an older browser following a link), and otherwise accepted: it comes from a non-browser
 * client, which carries no victim's cookies.
 */
export function isSameOriginRequest(request: Request): boolean {
  return isSameOrigin((name) => request.headers.get(name) ?? undefined, request.url);
}

/**
 * The same check on a request's headers as `header` reads them: the API reads Node's parsed
 * headers, as building the web Headers of every bet cost more than the check (issue 12).
 */
export function isSameOrigin(header: (name: Lowercase<string>) => string | undefined, requestUrl: string): boolean {
  // Sec-Fetch-Site is set by the browser alone, so when present it decides; Origin can be
  // "null" on same-origin posts from documents with a strict referrer policy.
  const fetchSite = header('sec-fetch-site');
  if (fetchSite) return fetchSite === 'same-origin' || fetchSite === 'none';
  const origin = header('origin') ?? header('referer');
  if (!origin) return true;
  if (origin === 'null') return false;
  try {
    const host = header('host') ?? new URL(requestUrl).host;
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

export function isStateChanging(method: string): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
}
