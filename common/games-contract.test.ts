/** The game-like record rule (spec §3): description.img_288_192 and description.name are shown instead of image_url and name. */
import { describe, expect, it } from 'vitest';
import { gameArtPath, gameDisplayImage, gameDisplayName } from './games-contract';

describe('game-like record', () => {
  const record = { name: 'Lightning Wheel', image_url: '/platform/art/lightning-wheel.svg' };

  it('shows description.name instead of name, and name when there is none (or it is empty)', () => {
    expect(gameDisplayName({ ...record, description: { name: 'Halloween Wheel' } })).toBe('Halloween Wheel');
    expect(gameDisplayName({ ...record, description: {} })).toBe('Lightning Wheel');
    expect(gameDisplayName({ ...record, description: { name: '' } })).toBe('Lightning Wheel');
  });

  it('shows description.img_288_192 instead of image_url, and image_url when there is none', () => {
    expect(gameDisplayImage({ ...record, description: { img_288_192: '/platform/art/promo.svg' } })).toBe(
      '/platform/art/promo.svg',
    );
    expect(gameDisplayImage({ ...record, description: { name: 'Other' } })).toBe('/platform/art/lightning-wheel.svg');
  });

  it('tile art lives under /platform/art', () => {
    expect(gameArtPath('dice-roll')).toBe('/platform/art/dice-roll.svg');
  });
});
