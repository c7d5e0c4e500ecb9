import { describe, expect, it } from 'vitest';
import { withoutAuthPopupParams } from './use-address-popups';

describe('address popups (spec §2: show_popup_* and prevent_close are removed after the popup closes)', () => {
  it('removes only the popup parameters and keeps the others in order', () => {
    expect(withoutAuthPopupParams('?show_popup_reg=1&prevent_close=1&promo_code=ABC&x=2')).toBe('?promo_code=ABC&x=2');
    expect(withoutAuthPopupParams('?show_popup_auth=1')).toBe('');
  });
  it('reports no change when there is nothing to remove', () => {
    expect(withoutAuthPopupParams('?promo_code=ABC')).toBeUndefined();
    expect(withoutAuthPopupParams('')).toBeUndefined();
  });
});
