import { defineMethod } from '../../api/define';
import { storageOwner } from './service';

export const storageMethods = [
  defineMethod({
    name: 'storage.get',
    handler: (ctx, params) => ctx.services.storage.get(storageOwner(ctx), params.keys),
  }),
  defineMethod({
    name: 'storage.getKeys',
    handler: (ctx) => ctx.services.storage.getKeys(storageOwner(ctx)),
  }),
  defineMethod({
    name: 'storage.set',
    handler: async (ctx, params) => {
      await ctx.services.storage.set(storageOwner(ctx), params.key, params.value);
      return 1;
    },
  }),
];
