/** Which spec route is showing: its name (without locale suffix) and its layout. */
import { useMatches } from 'react-router';
import { findRouteEntry, type LayoutName } from '#common/route-table';
import { parseRouteName } from '#common/locale';

export interface CurrentRoute {
  name: string;
  layout: LayoutName;
  params: Record<string, string | undefined>;
}

export function useCurrentRoute(): CurrentRoute {
  const matches = useMatches();
  const leaf = matches[matches.length - 1];
  const { name } = parseRouteName(leaf?.id ?? '');
  return { name, layout: findRouteEntry(name)?.layout ?? 'default', params: leaf?.params ?? {} };
}
