/**
 * Names sort as a reader of the locale expects, ignoring case and accents (games.getList sort=name,
 * games.getProviders), with one kept collator per locale (issue 12).
 */
import { describe, expect, it } from 'vitest';
import { nameCollator } from './collation';

const NAMES = ['zebra Reels', 'Ärger', 'aurora', 'Éclair', 'eclair', 'Bingo 10', 'bingo 9', 'Ødegaard'];

describe('nameCollator', () => {
  it.each(['en', 'it'])('orders names as localeCompare with base sensitivity does in %s', (locale) => {
    const expected = [...NAMES].sort((a, b) => a.localeCompare(b, locale, { sensitivity: 'base' }));
    expect([...NAMES].sort(nameCollator(locale).compare)).toEqual(expected);
    // Base sensitivity: case and accents alone make no difference.
    expect(nameCollator(locale).compare('Éclair', 'eclair')).toBe(0);
  });

  it('keeps one collator per locale', () => {
    expect(nameCollator('it')).toBe(nameCollator('it'));
    expect(nameCollator('it')).not.toBe(nameCollator('en'));
  });
});
