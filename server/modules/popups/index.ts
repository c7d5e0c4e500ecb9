/** Campaign popups (spec §2, §4, §6, §7 popups.get): which of the site's popups applies to a visitor now. */
export { createPopupService, type PopupService, type PopupServiceDeps, type PopupVisitor } from './service';
export { popupsMethods } from './methods';
