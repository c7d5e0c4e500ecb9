/** Dialog components by name; a dialog entry names its component (spec §3: dialog entry). */
import type { ComponentType } from 'react';
import { AuthPopup } from './auth-popup';
import { BettingBonusActivated } from './betting-bonus-activated';
import { CampaignPopup } from './campaign-popup';
import { ConfirmDialog } from './confirm-dialog';
import { DemoModeDialog } from './demo-mode';
import { GamesSearch } from './games-search';
import { IdleWarning } from './idle-warning';
import { LoyaltyCharacterChange, LoyaltyCharacterConfirm } from './loyalty-character';
import { PromocodeActivated } from './promocode-activated';
import { VerificationDialog } from './verification-dialog';
import { RealityCheck } from './reality-check';
import { SiteMenu } from './site-menu';
import { SocialRegistration } from './social-registration';
import { UnseenCashback } from './unseen-cashback';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each dialog declares its own props
export const DIALOG_COMPONENTS: Record<string, ComponentType<any>> = {
  auth: AuthPopup,
  bettingBonusActivated: BettingBonusActivated,
  campaign: CampaignPopup,
  confirm: ConfirmDialog,
  demoMode: DemoModeDialog,
  gamesSearch: GamesSearch,
  idleWarning: IdleWarning,
  loyaltyCharacter: LoyaltyCharacterChange,
  loyaltyCharacterConfirm: LoyaltyCharacterConfirm,
  promocodeActivated: PromocodeActivated,
  verification: VerificationDialog,
  realityCheck: RealityCheck,
  menu: SiteMenu,
  socialRegistration: SocialRegistration,
  unseenCashback: UnseenCashback,
};
