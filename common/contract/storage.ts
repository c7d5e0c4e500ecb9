/** storage.* (spec §7): a few key/value pairs per visitor or player. */
import { z } from 'zod';
import { method, type Done } from './method';

export const STORAGE_LIMITS = { keyChars: 64, valueBytes: 4096, keysPerOwner: 100 } as const;

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

export const storageContract = {
  'storage.get': method<Record<string, string | null>>()({ params: z.object({ keys: keyList }) }),
  'storage.getKeys': method<string[]>()({ params: z.object({}) }),
  'storage.set': method<Done>()({ params: z.object({ key: storageKey, value: z.string() }) }),
};
