/**
 * The game hall's calls of the product API (spec §7 games.get, getCategories, getProviders,
 * getLikes, addLike, removeLike), typed by the contract, over the same client in loaders
 * (in-process) and in the browser.
 */
import type { GameCategoryView, GameLikes, GameProviderView, GamesPage } from '#common/games-contract';
import type { ApiClient } from '~/api/client';

/** The fields a tile shows. */
export const TILE_FIELDS = 'sysname,name,provider,type,image_url,description';

export function gamesApi(api: ApiClient) {
  const { call } = api;
  return {
    list: (params: Record<string, string | number>) => call<GamesPage>('GET', 'games.get', { fields: TILE_FIELDS, ...params }),
    categories: () => call<GameCategoryView[]>('GET', 'games.getCategories'),
    /** Spec §7: types casino,slot,live,fast. */
    providers: () => call<GameProviderView[]>('GET', 'games.getProviders', { types: 'casino,slot,live,fast' }),
    likes: async () => (await call<GameLikes>('GET', 'games.getLikes')).sysnames,
    addLike: (sysname: string) => call<1>('POST', 'games.addLike', { sysname }),
    removeLike: (sysname: string) => call<1>('POST', 'games.removeLike', { sysname }),
  };
}
