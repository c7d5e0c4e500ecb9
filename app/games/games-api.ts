/**
 * The game hall's calls of the product API (spec §7 games.get, getCategories, getProviders,
 * getLikes, addLike, removeLike) in the hall's terms: tiles carry only the fields they show,
 * providers come for every game type, likes as a list of sysnames.
 */
import type { ParamsInput } from '#common/contract';
import type { ApiClient } from '~/api/client';

/** The fields a tile shows. */
export const TILE_FIELDS = 'sysname,name,provider,type,image_url,description';

export function gamesApi(api: ApiClient) {
  const { call } = api;
  return {
    /** A page of tiles: only the fields a tile shows. */
    list: (params: ParamsInput<'games.get'>) => call('games.get', { fields: TILE_FIELDS, ...params }),
    categories: () => call('games.getCategories'),
    /** Spec §7: types casino,slot,live,fast. */
    providers: () => call('games.getProviders', { types: 'casino,slot,live,fast' }),
    likes: async () => (await call('games.getLikes')).sysnames,
    addLike: (sysname: string) => call('games.addLike', { sysname }),
    removeLike: (sysname: string) => call('games.removeLike', { sysname }),
  };
}
