import { describe, expect, it } from 'vitest';
import { deviceClass } from './device';

describe('device size classes (spec §4)', () => {
  it('puts every boundary width in its class', () => {
    const cases: [number, string][] = [
      [320, 'mobile'],
      [767, 'mobile'],
      [768, 'tablet'],
      [991, 'tablet'],
      [992, 'laptop'],
      [1279, 'laptop'],
      [1280, 'laptopLg'],
      [1365, 'laptopLg'],
      [1366, 'desktopSm'],
      [1439, 'desktopSm'],
      [1440, 'desktop'],
      [1919, 'desktop'],
      [1920, 'desktopLg'],
      [3840, 'desktopLg'],
    ];
    for (const [width, expected] of cases) expect(deviceClass(width), String(width)).toBe(expected);
  });
});
