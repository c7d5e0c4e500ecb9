/**
 * A bonus row as the player sees it (common/contract/bonuses.ts). The description comes from the
 * template's texts in the player's language when the operator wrote them, else from its id.
 */
import type { BonusView } from '#common/contract';
import type { Locale } from '#common/locale';
import { amountToMinor, money } from '#common/money';
import type { BonusRow } from './tables';

export interface TemplateTexts {
  title?: string;
  text?: string;
}

function wageringPercent(row: BonusRow): number {
  if (row.status === 'converted' || row.wageringRequiredMinor === 0n) return 100;
  // Rounded down, so 100 shows only once the requirement is met.
  const percent = (row.wageredMinor * 100n) / row.wageringRequiredMinor;
  return Number(percent > 100n ? 100n : percent);
}

function optionalMoney(amounts: Record<string, string> | undefined, currency: string) {
  const amount = amounts?.[currency];
  return amount === undefined ? null : money(amountToMinor(amount), currency);
}

export function bonusView(row: BonusRow, texts: TemplateTexts | undefined): BonusView {
  const { currency, terms } = row;
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    description: { title: texts?.title ?? row.templateId, text: texts?.text ?? '' },
    amount: money(row.amountMinor, currency),
    balance: money(row.balanceMinor, currency),
    wagering: {
      required: money(row.wageringRequiredMinor, currency),
      wagered: money(row.wageredMinor, currency),
      percent: wageringPercent(row),
      multiplier: terms.wagering.multiplier,
    },
    max_stake: optionalMoney(terms.max_stake, currency),
    max_conversion: optionalMoney(terms.max_conversion, currency),
    converted: row.status === 'converted' ? money(row.convertedMinor, currency) : null,
    min_odds: terms.min_odds ?? null,
    is_free_bet: terms.free_bet === true,
    claim_expires_at: row.claimExpiresAt.toISOString(),
    wagering_expires_at: row.wageringExpiresAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    ended_at: row.endedAt?.toISOString() ?? null,
  };
}

/** The texts of a template in a language: `texts.{locale}` of the template, falling back to English. */
export function templateTexts(terms: BonusRow['terms'], locale: Locale): TemplateTexts | undefined {
  return terms.texts?.[locale] ?? terms.texts?.en;
}
