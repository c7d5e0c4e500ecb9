import { describe, expect, it } from 'vitest';
import { ApiError } from '#common/errors';
import { errorText, type Translate } from './shared';
import en from '../../../content/shared/en/translations/common.json';
import it_ from '../../../content/shared/it/translations/common.json';

/** The site's translate with its $$name$$ placeholders, over one language's table. */
const translator =
  (table: Record<string, string>): Translate =>
  (key, params = {}) =>
    Object.entries(params).reduce((text, [name, value]) => text.replaceAll(`$$${name}$$`, String(value)), table[key] ?? key);

describe('a refused stake says which bonus rule refused it (issue 13: max stake while wagering, isolation)', () => {
  const maxStake = new ApiError('InvalidParameterException', 'above max', {
    field: 'stake',
    errorType: 'bonusMaxStake',
    max_stake: '2.00',
    currency: 'EUR',
  });
  const frozen = new ApiError('InvalidParameterException', 'frozen', { field: 'stake', errorType: 'bonusFrozen' });

  it.each([
    ['en', en],
    ['it', it_],
  ])('in %s the maximum stake is named and the frozen bonus explained, not the generic stake message', (_, table) => {
    const t = translator(table as Record<string, string>);
    expect(errorText(t, maxStake)).toBe(t('gamePlay.error.bonusMaxStake', { amount: '€2.00' }));
    expect(errorText(t, maxStake)).toContain('€2.00');
    expect(errorText(t, frozen)).toBe(t('gamePlay.error.bonusFrozen'));
    expect(errorText(t, frozen)).not.toBe(t('gamePlay.error.stake'));
  });
});
