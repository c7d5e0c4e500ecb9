import { describe, expect, it } from 'vitest';
import en from '../../content/shared/en/translations/common.json';
import it_ from '../../content/shared/it/translations/common.json';
import { NAMED_SYSTEMS } from './bet-types';
import { EVENT_STATUSES, MARKET_STATUSES, ODDS_CHANGE_ACCEPTANCES, ODDS_FORMATS, SLIP_PROBLEM_CODES, SPORTS } from './types';

const tables: Record<string, Record<string, string>> = { en, it: it_ };

/** Every key the betting pages will look up for the contract's enumerations. */
const keys = [
  ...SPORTS.map((sport) => `sportsbook.sport.${sport}`),
  ...EVENT_STATUSES.map((status) => `sportsbook.eventStatus.${status}`),
  ...MARKET_STATUSES.map((status) => `sportsbook.marketStatus.${status}`),
  ...ODDS_FORMATS.map((format) => `sportsbook.oddsFormat.${format}`),
  ...ODDS_CHANGE_ACCEPTANCES.map((setting) => `sportsbook.oddsChange.${setting}`),
  ...['single', 'multiple', 'system', ...Object.keys(NAMED_SYSTEMS)].map((type) => `sportsbook.betType.${type}`),
  ...SLIP_PROBLEM_CODES.map((code) => `sportsbook.slip.problem.${code}`),
];

describe('issue 14 betting texts in en and it (spec §9 translations)', () => {
  it('every sport, status, odds format, odds-change setting, bet type and slip problem has a text in both locales', () => {
    for (const [locale, table] of Object.entries(tables))
      for (const key of keys) expect(table[key], `${locale}: ${key}`).toMatch(/\S/);
  });

  it('both locales use the same placeholders in each betting text', () => {
    const placeholders = (text: string) => [...text.matchAll(/\$\$(\w+)\$\$/g)].map((match) => match[1]).sort();
    for (const key of Object.keys(en).filter((k) => k.startsWith('sportsbook.')))
      expect(placeholders(tables.it![key]!), key).toEqual(placeholders(tables.en![key]!));
  });
});
