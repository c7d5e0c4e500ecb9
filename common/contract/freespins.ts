/**
 * freespins.get (spec §7: GET get with fields description, status active, count 99): the signed-in
 * player's packs. Playing a spin is games.play with `freespin_pack_id`.
 */
import { z } from 'zod';
import type { Money } from '../money';
import { method } from './method';

export const FREESPINS_PAGE_MAX = 99;

export type FreespinStatus = 'active' | 'used' | 'expired' | 'cancelled';

export interface FreespinPackView {
  id: string;
  game: { sysname: string; name: string };
  remaining_count: number;
  total_count: number;
  /** The stake of each spin. */
  stake: Money;
  /** What the pack's spins have won so far. */
  win: Money;
  wagering_multiplier: number;
  /** Where the wins go: main (wager-free) or bonus (to be wagered). */
  win_balance: 'main' | 'bonus';
  expires_at: string;
  status: FreespinStatus;
  created_at: string;
  description?: { title: string };
}

export interface FreespinPackPage {
  items: FreespinPackView[];
  total: number;
}

export const freespinsContract = {
  'freespins.get': method<FreespinPackPage>()({
    params: z.object({
      /** Comma-joined extra fields; `description` adds a title per pack. */
      fields: z.string().max(200).optional(),
      status: z.enum(['active', 'all']).default('active'),
      offset: z.coerce.number().int().min(0).max(100_000).default(0),
      count: z.coerce.number().int().min(1).max(FREESPINS_PAGE_MAX).default(FREESPINS_PAGE_MAX),
    }),
    requiresUser: true,
  }),
};
