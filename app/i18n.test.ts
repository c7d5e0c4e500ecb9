import { describe, expect, it } from 'vitest';
import { createTranslate, fillPlaceholders } from './i18n';

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
