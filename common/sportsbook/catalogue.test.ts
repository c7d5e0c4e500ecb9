import { describe, expect, it } from 'vitest';
import { LOCALES } from '../locale';
import {
  checkSpecifiers,
  formatLine,
  MARKET_CATALOGUE,
  marketKey,
  marketName,
  marketTypesOf,
  outcomeIdsOf,
  outcomeName,
  parseMarketKey,
  type MarketType,
} from './catalogue';
import { SPORTS } from './types';

const sampleSpecifiers = (type: MarketType) =>
  Object.fromEntries(MARKET_CATALOGUE[type].specifiers.map((name) => [name, name === 'total' ? '2.5' : '-1.25']));

const teams = { home: 'Juventus', away: 'Inter' };

describe('issue 14 market catalogue: markets by type and specifiers, named in en and it', () => {
  it('the issue’s markets are offered for each sport', () => {
    const required: Record<string, string[]> = {
      football: ['1x2', 'double_chance', 'draw_no_bet', 'total', 'asian_handicap', 'btts', 'correct_score', 'ht_1x2'],
      tennis: ['winner', 'set_handicap', 'total_games'],
      basketball: ['moneyline', 'spread', 'total_incl_overtime'],
      ice_hockey: ['1x2', 'total'],
    };
    for (const sport of SPORTS) expect(marketTypesOf(sport)).toEqual(expect.arrayContaining(required[sport]!));
  });

  it('every market and outcome has a name in every locale, with no placeholder left', () => {
    for (const type of Object.keys(MARKET_CATALOGUE) as MarketType[]) {
      const specifiers = sampleSpecifiers(type);
      for (const locale of LOCALES) {
        expect(marketName(type, specifiers, locale, teams)).not.toMatch(/[{}]|^$/);
        for (const outcome of outcomeIdsOf(type))
          expect(outcomeName(type, outcome, specifiers, locale, teams)).not.toMatch(/[{}]|^$/);
      }
    }
  });

  it('outcome ids are unique within a market', () => {
    for (const type of Object.keys(MARKET_CATALOGUE)) expect(new Set(outcomeIdsOf(type)).size).toBe(outcomeIdsOf(type).length);
  });

  it('lines use the locale’s decimal separator: "Total 2.5" / "Totale 2,5"', () => {
    expect(marketName('total', { total: '2.5' }, 'en')).toBe('Total 2.5');
    expect(marketName('total', { total: '2.5' }, 'it')).toBe('Totale 2,5');
    expect(marketName('asian_handicap', { hcp: '-1.25' }, 'it')).toBe('Handicap asiatico -1,25');
  });

  it('a handicap outcome shows each side’s own line: the away side sees the opposite sign', () => {
    expect(outcomeName('asian_handicap', '1', { hcp: '-0.75' }, 'en', teams)).toBe(
      `Juventus (${formatLine('-0.75', 'en', true)})`,
    );
    expect(outcomeName('asian_handicap', '2', { hcp: '-0.75' }, 'en', teams)).toBe(`Inter (${formatLine('0.75', 'en', true)})`);
    expect(formatLine('0.75', 'en', true)).toBe('+0.75');
  });

  it('a market needs exactly its specifiers, each a whole, half or quarter line', () => {
    expect(() => checkSpecifiers('total', {})).toThrow(RangeError);
    expect(() => checkSpecifiers('total', { total: '2.3' })).toThrow(RangeError);
    expect(() => checkSpecifiers('total', { total: '-2.5' })).toThrow(RangeError);
    expect(() => checkSpecifiers('1x2', { total: '2.5' })).toThrow(RangeError);
    expect(() => checkSpecifiers('asian_handicap', { hcp: '-0.25' })).not.toThrow();
  });

  it('a market key names type and specifiers in a canonical order and reads back', () => {
    const specifiers = { total: '2.5', hcp: '-1' };
    expect(marketKey('x', specifiers)).toBe(marketKey('x', { hcp: '-1', total: '2.5' }));
    expect(parseMarketKey(marketKey('x', specifiers))).toEqual({ type: 'x', specifiers });
    expect(parseMarketKey(marketKey('1x2'))).toEqual({ type: '1x2', specifiers: {} });
  });
});
