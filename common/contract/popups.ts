/**
 * popups.get (spec §7 "popups: GET get (campaign popup)"; §2 campaign dialog; §4 "after login the
 * unseen-cashback popup and the campaign popup are queued"; §6 campaign popups are for signed-in
 * players): the one campaign popup that applies to this visitor now, or null. Which routes never
 * open it (§2) is the page's concern: the answer does not depend on the route.
 */
import { z } from 'zod';
import { method } from './method';

/** Who a popup is for; without one it is for signed-in players (§6). */
export const POPUP_AUDIENCES = ['anonymous', 'signed_in', 'all'] as const;
export type PopupAudience = (typeof POPUP_AUDIENCES)[number];

/**
 * When it opens: on any visit, on the visitor's first visit, right after sign-in, or for a
 * signed-in player who has never deposited.
 */
export const POPUP_TRIGGERS = ['any', 'first_visit', 'after_login', 'no_deposit'] as const;
export type PopupTrigger = (typeof POPUP_TRIGGERS)[number];

/** What the page says it is opening the popup for: a visit, the visitor's first visit, or a sign-in. */
export const POPUP_EVENTS = ['visit', 'first_visit', 'login'] as const;
export type PopupEvent = (typeof POPUP_EVENTS)[number];

export interface PopupView {
  id: number;
  sysname: string;
  audience: PopupAudience;
  trigger: PopupTrigger;
  title: string;
  text: string;
  button: string | null;
  link: string | null;
  image: string | null;
}

export const popupsContract = {
  'popups.get': method<PopupView | null>()({
    params: z.object({
      event: z.enum(POPUP_EVENTS).default('visit'),
      fields: z.string().max(200).optional(),
    }),
  }),
};
