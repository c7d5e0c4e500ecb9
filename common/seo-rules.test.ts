import { describe, expect, it } from 'vitest';
import { applyReplacements, disallowedPrefixes, robotsMetaFor } from './seo-rules';

const ROBOTS = [
  'User-agent: Googlebot',
  'Disallow: /only-google',
  '',
  'User-agent: *',
  'Disallow: /cashier',
  'Disallow: /it/profile',
  'Disallow: /tmp-*',
  'Allow: /',
].join('\n');

describe('robots rules (spec §9: Disallow rules make pages noindex, follow)', () => {
  it('reads the Disallow rules of the * group only', () => {
    expect(disallowedPrefixes(ROBOTS)).toEqual(['/cashier', '/it/profile', '/tmp-*']);
  });
  it('marks covered paths noindex, follow and leaves others alone', () => {
    expect(robotsMetaFor('/cashier', ROBOTS)).toBe('noindex, follow');
    expect(robotsMetaFor('/cashier/deposit', ROBOTS)).toBe('noindex, follow');
    expect(robotsMetaFor('/it/profile/settings', ROBOTS)).toBe('noindex, follow');
    expect(robotsMetaFor('/tmp-landing', ROBOTS)).toBe('noindex, follow');
    expect(robotsMetaFor('/cashiers-guide', ROBOTS)).toBeUndefined();
    expect(robotsMetaFor('/only-google', ROBOTS)).toBeUndefined();
    expect(robotsMetaFor('/promotions', undefined)).toBeUndefined();
  });
});

describe('SEO text replacements (spec §9: a configured map applied to SEO strings)', () => {
  it('replaces every occurrence of every key', () => {
    expect(applyReplacements('{year} bonus {year}', { '{year}': '2026' })).toBe('2026 bonus 2026');
    expect(applyReplacements('plain', {})).toBe('plain');
    expect(applyReplacements('plain', undefined)).toBe('plain');
  });
});
