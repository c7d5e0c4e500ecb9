/**
 * Dialog components by name; a dialog entry names its component (spec §3: dialog entry). Each is
 * loaded when a dialog first opens, not with the page: no dialog is part of a page's first paint,
 * and together they weighed a sixth of every page's JavaScript (issue 12).
 */
import { lazy, type ComponentType } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each dialog declares its own props
type AnyComponent = ComponentType<any>;

/** A named export as a lazy component. */
function lazyNamed<K extends string>(load: () => Promise<Record<K, AnyComponent>>, name: K): AnyComponent {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

export const DIALOG_COMPONENTS: Record<string, AnyComponent> = {
  auth: lazyNamed(() => import('./auth-popup'), 'AuthPopup'),
  campaign: lazyNamed(() => import('./campaign-popup'), 'CampaignPopup'),
  confirm: lazyNamed(() => import('./confirm-dialog'), 'ConfirmDialog'),
  demoMode: lazyNamed(() => import('./demo-mode'), 'DemoModeDialog'),
  gamesSearch: lazyNamed(() => import('./games-search'), 'GamesSearch'),
  idleWarning: lazyNamed(() => import('./idle-warning'), 'IdleWarning'),
  loyaltyCharacter: lazyNamed(() => import('./loyalty-character'), 'LoyaltyCharacterChange'),
  loyaltyCharacterConfirm: lazyNamed(() => import('./loyalty-character'), 'LoyaltyCharacterConfirm'),
  verification: lazyNamed(() => import('./verification-dialog'), 'VerificationDialog'),
  realityCheck: lazyNamed(() => import('./reality-check'), 'RealityCheck'),
  menu: lazyNamed(() => import('./site-menu'), 'SiteMenu'),
  socialRegistration: lazyNamed(() => import('./social-registration'), 'SocialRegistration'),
};
