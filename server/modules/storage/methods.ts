import { z } from 'zod';
import { defineMethod } from '../../api/define';
import { STORAGE_LIMITS, storageOwner } from './service';

const storageKey = z
  .string()
  .trim()
  .min(1)
  .max(STORAGE_LIMITS.keyChars)
  .regex(/^[\w.:-]+$/, 'letters, digits, . : _ - only');

/** keys=a,b or keys[]=a&keys[]=b */
const keyList = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value : value.split(',')).map((key) => key.trim()).filter(Boolean))
  .pipe(z.array(storageKey).min(1).max(STORAGE_LIMITS.keysPerOwner));

export const storageMethods = [
  defineMethod({
    service: 'storage',
    method: 'get',
    verbs: ['GET'],
    params: z.object({ keys: keyList }),
    handler: (ctx, params) => ctx.services.storage.get(storageOwner(ctx), params.keys),
  }),
  defineMethod({
    service: 'storage',
    method: 'getKeys',
    verbs: ['GET'],
    params: z.object({}),
    handler: (ctx) => ctx.services.storage.getKeys(storageOwner(ctx)),
  }),
  defineMethod({
    service: 'storage',
    method: 'set',
    verbs: ['POST'],
    params: z.object({ key: storageKey, value: z.string() }),
    handler: async (ctx, params) => {
      await ctx.services.storage.set(storageOwner(ctx), params.key, params.value);
      return 1;
    },
  }),
];
