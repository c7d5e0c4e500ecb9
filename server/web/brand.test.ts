/**
 * Issue 12 "unsized images": the site sizes the generated logos' <img> from common/brand-logo.ts
 * before they load; the pictures this file draws must have exactly those proportions.
 */
import { describe, expect, it } from 'vitest';
import { GENERATED_LOGO, GENERATED_LOGO_MOBILE, logoSize } from '#common/brand-logo';
import type { Site } from '../modules/sites';
import { logoSvg } from './brand';

function viewBox(svg: string): { width: number; height: number } {
  const [, , width, height] = /viewBox="([\d.\s]+)"/.exec(svg)![1]!.trim().split(/\s+/).map(Number);
  return { width: width!, height: height! };
}

describe('generated logo sizes', () => {
  it.each(['Aurora Casino', 'X', 'A much longer casino brand name'])(
    'the wide logo of %s has the width the site gives it',
    (name) => {
      const site = { name, settings: {} } as unknown as Site;
      const drawn = viewBox(logoSvg(site));
      const size = logoSize(GENERATED_LOGO, name, drawn.height);
      expect(size).toEqual({ width: drawn.width, height: drawn.height });
      const compact = viewBox(logoSvg(site, true));
      expect(logoSize(GENERATED_LOGO_MOBILE, name, compact.height)).toEqual(compact);
    },
  );

  it('a configured picture keeps only its height', () => {
    expect(logoSize('/cms/uploads/logo.png', 'Aurora Casino', 32)).toEqual({ height: 32 });
  });
});
