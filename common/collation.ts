/**
 * Names compared the way a reader of the locale sorts them, ignoring case and accents.
 *
 * `a.localeCompare(b, locale, options)` builds a collator on every comparison: sorting the providers
 * of a game hall that way took longer than the rest of the list (issue 12, a render's CPU), about
 * 25 times a compare of one kept collator.
 */
const collators = new Map<string, Intl.Collator>();

/** The locale's kept collator, case and accents ignored ("base" sensitivity). */
export function nameCollator(locale: string): Intl.Collator {
  let collator = collators.get(locale);
  if (!collator) {
    collator = new Intl.Collator(locale, { sensitivity: 'base' });
    collators.set(locale, collator);
  }
  return collator;
}
