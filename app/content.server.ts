/** Reading the content platform from loaders (in-process during SSR). */
import type { PageLoadContext } from '#common/load-context';

export interface StrapiList<T> {
  data: { id: number; attributes: T }[];
}

export async function cmsList<T>(
  context: unknown,
  collection: string,
  locale: string,
  filters: Record<string, string> = {},
): Promise<{ id: number; attributes: T }[]> {
  const ctx = context as PageLoadContext;
  const search = new URLSearchParams({ locale, 'pagination[pageSize]': '100' });
  for (const [field, value] of Object.entries(filters)) search.set(`filters[${field}][$eq]`, value);
  const { status, body } = await ctx.readContent(collection, search);
  if (status !== 200) return [];
  return (body as StrapiList<T>).data;
}
