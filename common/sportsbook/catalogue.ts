/**
 * The market catalogue as data (issue 14): every market type the sportsbook offers, which sports
 * offer it, the specifiers it needs (total=2.5, hcp=-1.25), and the player-facing names of the
 * market and its outcomes in every locale, as templates:
 *
 *   {total}                the total line ("2.5", in Italian "2,5")
 *   {hcp}                  the home side's handicap, signed ("-1.25", "+0.5", "0")
 *   {+hcp} / {-hcp}        the handicap from the home / away side's view, signed
 *   {$competitor1} / {$competitor2}   the home / away competitor's name
 *
 * Outcome ids are stable strings the feed and the settlement share ('1', 'X', '2', 'over',
 * '2:1', 'other'). Lines are whole, half or quarter numbers (Asian lines: -0.25, 2.75).
 */
import type { Locale } from '../locale';
import type { Localized, Specifiers, Sport } from './types';

export interface OutcomeDefinition {
  id: string;
  name: Localized;
}

export type SpecifierName = 'total' | 'hcp';

export interface MarketDefinition {
  name: Localized;
  sports: readonly Sport[];
  specifiers: readonly SpecifierName[];
  outcomes: readonly OutcomeDefinition[];
}

const home: OutcomeDefinition = { id: '1', name: { en: '{$competitor1}', it: '{$competitor1}' } };
const draw: OutcomeDefinition = { id: 'X', name: { en: 'Draw', it: 'Pareggio' } };
const away: OutcomeDefinition = { id: '2', name: { en: '{$competitor2}', it: '{$competitor2}' } };
const over: OutcomeDefinition = { id: 'over', name: { en: 'Over {total}', it: 'Più di {total}' } };
const under: OutcomeDefinition = { id: 'under', name: { en: 'Under {total}', it: 'Meno di {total}' } };
const homeWithHandicap: OutcomeDefinition = { id: '1', name: { en: '{$competitor1} ({+hcp})', it: '{$competitor1} ({+hcp})' } };
const awayWithHandicap: OutcomeDefinition = { id: '2', name: { en: '{$competitor2} ({-hcp})', it: '{$competitor2} ({-hcp})' } };

/** The scores a correct-score market lists one by one; anything else is 'other'. */
export const CORRECT_SCORE_MAX_GOALS = 4;

const correctScoreOutcomes: OutcomeDefinition[] = [
  ...Array.from({ length: (CORRECT_SCORE_MAX_GOALS + 1) ** 2 }, (_, index) => {
    const score = `${Math.floor(index / (CORRECT_SCORE_MAX_GOALS + 1))}:${index % (CORRECT_SCORE_MAX_GOALS + 1)}`;
    return { id: score, name: { en: score, it: score } };
  }),
  { id: 'other', name: { en: 'Any other score', it: 'Altro risultato' } },
];

export const MARKET_CATALOGUE = {
  '1x2': {
    name: { en: '1X2', it: '1X2' },
    sports: ['football', 'ice_hockey'],
    specifiers: [],
    outcomes: [home, draw, away],
  },
  double_chance: {
    name: { en: 'Double chance', it: 'Doppia chance' },
    sports: ['football'],
    specifiers: [],
    outcomes: [
      { id: '1X', name: { en: '{$competitor1} or draw', it: '{$competitor1} o pareggio' } },
      { id: '12', name: { en: '{$competitor1} or {$competitor2}', it: '{$competitor1} o {$competitor2}' } },
      { id: 'X2', name: { en: 'Draw or {$competitor2}', it: 'Pareggio o {$competitor2}' } },
    ],
  },
  draw_no_bet: {
    name: { en: 'Draw no bet', it: 'Pareggio nessuna scommessa' },
    sports: ['football'],
    specifiers: [],
    outcomes: [home, away],
  },
  total: {
    name: { en: 'Total {total}', it: 'Totale {total}' },
    sports: ['football', 'ice_hockey'],
    specifiers: ['total'],
    outcomes: [over, under],
  },
  asian_handicap: {
    name: { en: 'Asian handicap {hcp}', it: 'Handicap asiatico {hcp}' },
    sports: ['football'],
    specifiers: ['hcp'],
    outcomes: [homeWithHandicap, awayWithHandicap],
  },
  btts: {
    name: { en: 'Both teams to score', it: 'Entrambe le squadre segnano' },
    sports: ['football'],
    specifiers: [],
    outcomes: [
      { id: 'yes', name: { en: 'Yes', it: 'Sì' } },
      { id: 'no', name: { en: 'No', it: 'No' } },
    ],
  },
  correct_score: {
    name: { en: 'Correct score', it: 'Risultato esatto' },
    sports: ['football'],
    specifiers: [],
    outcomes: correctScoreOutcomes,
  },
  ht_1x2: {
    name: { en: '1st half - 1X2', it: '1° tempo - 1X2' },
    sports: ['football'],
    specifiers: [],
    outcomes: [home, draw, away],
  },
  ht_total: {
    name: { en: '1st half - total {total}', it: '1° tempo - totale {total}' },
    sports: ['football'],
    specifiers: ['total'],
    outcomes: [over, under],
  },
  winner: {
    name: { en: 'Winner', it: 'Vincente' },
    sports: ['tennis'],
    specifiers: [],
    outcomes: [home, away],
  },
  set_handicap: {
    name: { en: 'Set handicap {hcp}', it: 'Handicap set {hcp}' },
    sports: ['tennis'],
    specifiers: ['hcp'],
    outcomes: [homeWithHandicap, awayWithHandicap],
  },
  total_games: {
    name: { en: 'Total games {total}', it: 'Totale game {total}' },
    sports: ['tennis'],
    specifiers: ['total'],
    outcomes: [over, under],
  },
  moneyline: {
    name: { en: 'Winner (incl. overtime)', it: 'Vincente (supplementari inclusi)' },
    sports: ['basketball'],
    specifiers: [],
    outcomes: [home, away],
  },
  spread: {
    name: { en: 'Handicap {hcp} (incl. overtime)', it: 'Handicap {hcp} (supplementari inclusi)' },
    sports: ['basketball'],
    specifiers: ['hcp'],
    outcomes: [homeWithHandicap, awayWithHandicap],
  },
  total_incl_overtime: {
    name: { en: 'Total {total} (incl. overtime)', it: 'Totale {total} (supplementari inclusi)' },
    sports: ['basketball'],
    specifiers: ['total'],
    outcomes: [over, under],
  },
} as const satisfies Record<string, MarketDefinition>;

export type MarketType = keyof typeof MARKET_CATALOGUE;

export function isMarketType(value: string): value is MarketType {
  return Object.hasOwn(MARKET_CATALOGUE, value);
}

export function marketDefinition(type: string): MarketDefinition {
  if (!isMarketType(type)) throw new RangeError(`unknown market type: ${type}`);
  return MARKET_CATALOGUE[type];
}

export function marketTypesOf(sport: Sport): MarketType[] {
  return (Object.keys(MARKET_CATALOGUE) as MarketType[]).filter((type) =>
    (MARKET_CATALOGUE[type].sports as readonly Sport[]).includes(sport),
  );
}

/** Whole, half or quarter lines: what handicaps and totals are quoted in. */
const LINE = /^-?\d{1,3}(\.(0|00|25|5|50|75))?$/;

/** The specifiers a market of this type must carry, each a valid line (a total above zero). */
export function checkSpecifiers(type: string, specifiers: Specifiers): void {
  const definition = marketDefinition(type);
  const given = Object.keys(specifiers).sort();
  const expected = [...definition.specifiers].sort();
  if (given.join() !== expected.join()) throw new RangeError(`${type} takes specifiers [${expected}], got [${given}]`);
  for (const name of definition.specifiers) {
    const value = specifiers[name] ?? '';
    if (!LINE.test(value) || (name === 'total' && Number(value) <= 0))
      throw new RangeError(`${type}: ${name}=${value} is not a line`);
  }
}

/** One market of an event: its type and specifiers, sorted by name ("total|total=2.5"). */
export function marketKey(type: string, specifiers: Specifiers = {}): string {
  const parts = Object.keys(specifiers)
    .sort()
    .map((name) => `${name}=${specifiers[name]}`);
  return parts.length === 0 ? type : `${type}|${parts.join('&')}`;
}

export function parseMarketKey(key: string): { type: string; specifiers: Record<string, string> } {
  const [type = '', rest] = key.split('|');
  const specifiers: Record<string, string> = {};
  for (const part of rest ? rest.split('&') : []) {
    const [name = '', value = ''] = part.split('=');
    specifiers[name] = value;
  }
  return { type, specifiers };
}

/** A line in the locale's notation: "2.5" / "2,5"; signed lines carry + above zero. */
export function formatLine(value: string, locale: Locale, signed = false): string {
  const number = Number(value);
  const text = String(Math.abs(number));
  const sign = number < 0 ? '-' : signed && number > 0 ? '+' : '';
  return `${sign}${locale === 'it' ? text.replace('.', ',') : text}`;
}

function negate(value: string): string {
  return value.startsWith('-') ? value.slice(1) : `-${value}`;
}

export interface CompetitorNames {
  home: string;
  away: string;
}

function render(template: string, specifiers: Specifiers, locale: Locale, competitors: CompetitorNames): string {
  const hcp = specifiers.hcp ?? '0';
  const values: Record<string, string> = {
    total: formatLine(specifiers.total ?? '', locale),
    hcp: formatLine(hcp, locale, true),
    '+hcp': formatLine(hcp, locale, true),
    '-hcp': formatLine(negate(hcp), locale, true),
    $competitor1: competitors.home,
    $competitor2: competitors.away,
  };
  return template.replace(/\{([^}]+)\}/g, (whole, name: string) => values[name] ?? whole);
}

const GENERIC_COMPETITORS: Record<Locale, CompetitorNames> = {
  en: { home: 'Home', away: 'Away' },
  it: { home: 'Casa', away: 'Ospiti' },
};

/** "Total 2.5", "Totale 2,5", "Handicap asiatico -1,25". */
export function marketName(type: string, specifiers: Specifiers, locale: Locale, competitors?: CompetitorNames): string {
  checkSpecifiers(type, specifiers);
  return render(marketDefinition(type).name[locale], specifiers, locale, competitors ?? GENERIC_COMPETITORS[locale]);
}

/** "Over 2.5", "Juventus (-0.25)", "Pareggio". */
export function outcomeName(
  type: string,
  outcomeId: string,
  specifiers: Specifiers,
  locale: Locale,
  competitors?: CompetitorNames,
): string {
  checkSpecifiers(type, specifiers);
  const outcome = marketDefinition(type).outcomes.find((candidate) => candidate.id === outcomeId);
  if (!outcome) throw new RangeError(`${type} has no outcome ${outcomeId}`);
  return render(outcome.name[locale], specifiers, locale, competitors ?? GENERIC_COMPETITORS[locale]);
}

export function outcomeIdsOf(type: string): string[] {
  return marketDefinition(type).outcomes.map((outcome) => outcome.id);
}
