import { describe, expect, it } from 'vitest';
import { fittingCount } from './nav-active';

describe('the header strip keeps what fits and leaves the rest to the More menu (issue 15)', () => {
  const widths = [80, 120, 90, 110, 130, 90];
  const total = widths.reduce((sum, width) => sum + width, 0) + 5 * 2;

  it('shows every item when they all fit, without a More button', () => {
    expect(fittingCount(widths, 2, total, 70)).toBe(widths.length);
  });

  it('with one pixel less, keeps as many as leave room for the More button', () => {
    // 70 (More) + 2 + 80 + 2 + 120 + 2 + 90 = 366 fits in 380; the fourth item (110) does not.
    expect(fittingCount(widths, 2, 380, 70)).toBe(3);
    expect(fittingCount(widths, 2, total - 1, 70)).toBeLessThan(widths.length);
  });

  it('keeps none when even the first item and the More button do not fit', () => {
    expect(fittingCount(widths, 2, 100, 70)).toBe(0);
  });
});
