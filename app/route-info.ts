/** Which spec route is showing: its name (without locale suffix) and its layout. */
import { useMatches } from 'react-router';
import { findRouteEntry, type LayoutName } from '#common/route-table';
import { parseRouteName } from '#common/locale';

export interface CurrentRoute {
  name: string;
  layout: LayoutName;
  /** Shown inside another page's frame (RouteEntry.isFramed). */
  isFramed: boolean;
  params: Record<string, string | undefined>;
}

export function useCurrentRoute(): CurrentRoute {
  const matches = useMatches();
  const leaf = matches[matches.length - 1];
  const { name } = parseRouteName(leaf?.id ?? '');
  const entry = findRouteEntry(name);
  return { name, layout: entry?.layout ?? 'default', isFramed: entry?.isFramed === true, params: leaf?.params ?? {} };
}
