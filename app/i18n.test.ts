import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COUNTED_KEYS, createTranslate, createTranslateCount, fillPlaceholders } from './i18n';

describe('translations (spec §5: $$min$$ / $$max$$ placeholders are filled)', () => {
  it('fills every named placeholder and leaves unknown ones visible', () => {
    expect(fillPlaceholders('Min length is $$min$$', { min: 6 })).toBe('Min length is 6');
    expect(fillPlaceholders('$$min$$–$$max$$ of $$unit$$', { min: 1, max: 2 })).toBe('1–2 of $$unit$$');
  });
  it('shows a missing key as itself so it can be found and added to content', () => {
    const t = createTranslate({ 'a.b': 'Hello $$name$$' });
    expect(t('a.b', { name: 'Ada' })).toBe('Hello Ada');
    expect(t('missing.key')).toBe('missing.key');
  });
});

describe('counted texts take the plural form of their count (issue 15: "Every 1 minutes")', () => {
  const table = (locale: 'en' | 'it') =>
    JSON.parse(readFileSync(`content/shared/${locale}/translations/common.json`, 'utf8')) as Record<string, string>;
  const en = createTranslateCount(table('en'), 'en');
  const it_ = createTranslateCount(table('it'), 'it');

  it('English: one for 1, other for 0, 2 and more', () => {
    expect(en('rg.realityCheck.every', 1)).toBe('Every minute');
    expect(en('rg.realityCheck.every', 2)).toBe('Every 2 minutes');
    expect(en('rg.realityCheck.every', 60)).toBe('Every 60 minutes');
    expect(en('idle.text', 1)).toBe('You will be signed out in 1 second for your security.');
    expect(en('idle.text', 0)).toBe('You will be signed out in 0 seconds for your security.');
    expect(en('gamehall.providers.count', 1)).toBe('1 game');
    expect(en('gamehall.providers.count', 12)).toBe('12 games');
  });

  it('Italian: one for 1, other for 0, 2 and more', () => {
    expect(it_('rg.realityCheck.every', 1)).toBe('Ogni minuto');
    expect(it_('rg.realityCheck.every', 2)).toBe('Ogni 2 minuti');
    expect(it_('idle.text', 1)).toBe('Verrai disconnesso tra 1 secondo per la tua sicurezza.');
    expect(it_('idle.text', 5)).toBe('Verrai disconnesso tra 5 secondi per la tua sicurezza.');
    expect(it_('gamehall.providers.count', 1)).toBe('1 gioco');
    expect(it_('gamehall.providers.count', 3)).toBe('3 giochi');
  });

  it('every counted key has its one and other forms in both languages, each showing the count unless it is one', () => {
    for (const locale of ['en', 'it'] as const) {
      const texts = table(locale);
      for (const key of COUNTED_KEYS) {
        expect(texts[`${key}.one`], `${locale} ${key}.one`).toBeTypeOf('string');
        expect(texts[`${key}.other`], `${locale} ${key}.other`).toContain('$$count$$');
      }
    }
  });

  it('falls back to the other form, then shows the missing key', () => {
    const translate = createTranslateCount({ 'x.other': '$$count$$ things of $$owner$$' }, 'en');
    expect(translate('x', 1, { owner: 'Ada' })).toBe('1 things of Ada');
    expect(translate('y', 2)).toBe('y.other');
  });
});
