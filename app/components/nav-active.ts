/**
 * Which configured navigation item is the current page. Items may differ only by query
 * (/gamehall and /gamehall?category=live), which NavLink ignores, so both would light up.
 */

function split(path: string): { pathname: string; params: URLSearchParams } {
  const [pathname = '/', query = ''] = path.split('?');
  return { pathname, params: new URLSearchParams(query) };
}

/** An item is current when its path is the page's (or a parent of it) and its query matches best. */
/** A main-navigation entry as the configuration (prazer-config.navigation) lists it. */
export interface NavItem {
  key: string;
  path: string;
}

export function activeNavPath(items: readonly NavItem[], barePathname: string, search: string): string | undefined {
  const current = new URLSearchParams(search);
  let best: { path: string; score: number } | undefined;
  for (const item of items) {
    const { pathname, params } = split(item.path);
    const isPathMatch = barePathname === pathname || barePathname.startsWith(`${pathname}/`);
    if (!isPathMatch) continue;
    const keys = [...params.keys()];
    if (keys.some((key) => current.get(key) !== params.get(key))) continue;
    const score = pathname.length * 10 + keys.length;
    if (!best || score > best.score) best = { path: item.path, score };
  }
  return best?.path;
}

/**
 * How many navigation items the header's strip shows (issue 15): all when they fit, else as many
 * as leave room for the More button, which takes the rest.
 */
export function fittingCount(itemWidths: readonly number[], gap: number, available: number, moreWidth: number): number {
  const total = itemWidths.reduce((sum, width, index) => sum + width + (index > 0 ? gap : 0), 0);
  if (total <= available) return itemWidths.length;
  let used = moreWidth;
  let count = 0;
  for (const width of itemWidths) {
    const next = used + gap + width;
    if (next > available) break;
    used = next;
    count++;
  }
  return count;
}
