/**
 * A site's bonus programme from its settings (issue 13): the `bonuses` block holds the operator's
 * templates and the jurisdiction's rules; `is_bonus_isolation_enabled` (spec §3 general site info)
 * freezes bonus money while real money remains and allows one casino bonus at a time. A template
 * that does not parse is left out and logged once, never half-used.
 */
import { bonusTemplateSchema, jurisdictionSchema, type BonusTemplate, type Jurisdiction } from './rules';

export interface BonusProgramme {
  templates: ReadonlyMap<string, BonusTemplate>;
  jurisdiction: Jurisdiction;
  isolation: boolean;
  /** The template every new player is granted (available, to activate), if the site gives one. */
  registrationTemplateId: string | undefined;
  /** The terms of free spins winnings bonuses (the pack sets the multiplier); built-in terms when none. */
  freespinsTemplateId: string | undefined;
}

const reported = new Set<string>();

export function bonusProgramme(settings: Record<string, unknown> | undefined): BonusProgramme {
  const block = (settings?.bonuses ?? {}) as {
    templates?: unknown[];
    jurisdiction?: unknown;
    registration_template_id?: unknown;
    freespins_template_id?: unknown;
  };
  const templates = new Map<string, BonusTemplate>();
  for (const candidate of Array.isArray(block.templates) ? block.templates : []) {
    const parsed = bonusTemplateSchema.safeParse(candidate);
    if (parsed.success) templates.set(parsed.data.id, parsed.data);
    else reportOnce(candidate, parsed.error.message);
  }
  const jurisdiction = jurisdictionSchema.safeParse(block.jurisdiction ?? {});
  return {
    templates,
    jurisdiction: jurisdiction.success ? jurisdiction.data : jurisdictionSchema.parse({}),
    isolation: settings?.is_bonus_isolation_enabled === true,
    registrationTemplateId: typeof block.registration_template_id === 'string' ? block.registration_template_id : undefined,
    freespinsTemplateId: typeof block.freespins_template_id === 'string' ? block.freespins_template_id : undefined,
  };
}

function reportOnce(candidate: unknown, problem: string): void {
  const id = (candidate as { id?: unknown })?.id;
  const key = `${String(id)}:${problem}`;
  if (reported.has(key)) return;
  reported.add(key);
  console.warn(`bonus template ${String(id)} is not valid and is not offered: ${problem}`);
}
