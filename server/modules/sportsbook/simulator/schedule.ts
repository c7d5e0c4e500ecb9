/**
 * The simulator's fixture list (issue 14: "it schedules realistic fixtures for the coming days"):
 * football leagues of four countries, each with its clubs' strengths, playing rounds on each of
 * the coming days at the usual kick-off hours. A seed replays the same schedule. Times are in the
 * simulator's clock (speed factor applied), so kick-offs look like real ones at any speed.
 */
import { uniformInt, type Rng } from '#common/games/fair';
import type { Fixture } from '../feed/fixtures';
import type { SimulatedSport } from './match-feed';
import type { ExpectedGoals, TeamStrength } from './poisson';

interface Club {
  name: string;
  strength: TeamStrength;
}

interface League {
  sport: SimulatedSport;
  /** The league's average goals per match, home and away. */
  goals: ExpectedGoals;
  category: { id: string; name: string };
  tournament: { id: string; name: string };
  clubs: readonly Club[];
}

const club = (name: string, attack: number, defence: number): Club => ({ name, strength: { attack, defence } });

/** Roughly Europe's top flights. */
const FOOTBALL_GOALS: ExpectedGoals = { home: 1.5, away: 1.2 };
/** Regular time of an ice hockey league. */
const ICE_HOCKEY_GOALS: ExpectedGoals = { home: 3.1, away: 2.8 };

/** Invented clubs: the demo must not name real ones. */
export const LEAGUES: readonly League[] = [
  {
    sport: 'football',
    goals: FOOTBALL_GOALS,
    category: { id: 'sim:category:england', name: 'England' },
    tournament: { id: 'sim:tournament:eng-1', name: 'Premier Division' },
    clubs: [
      club('Northbridge United', 1.35, 0.75),
      club('Kingsport City', 1.25, 0.8),
      club('Ashford Rovers', 1.0, 1.0),
      club('Millbrook Athletic', 0.95, 1.05),
      club('Harwell Town', 0.85, 1.15),
      club('Eastmoor Albion', 0.8, 1.2),
    ],
  },
  {
    sport: 'football',
    goals: FOOTBALL_GOALS,
    category: { id: 'sim:category:italy', name: 'Italy' },
    tournament: { id: 'sim:tournament:ita-1', name: 'Serie Prima' },
    clubs: [
      club('Sporting Valdoro', 1.3, 0.8),
      club('Real Montefalco', 1.15, 0.85),
      club('Atletico Rivabella', 1.0, 0.95),
      club('Union Castelmare', 0.9, 1.05),
      club('Virtus Pianalto', 0.85, 1.1),
      club('Olimpia Serravalle', 0.8, 1.2),
    ],
  },
  {
    sport: 'football',
    goals: FOOTBALL_GOALS,
    category: { id: 'sim:category:spain', name: 'Spain' },
    tournament: { id: 'sim:tournament:esp-1', name: 'Liga Mayor' },
    clubs: [
      club('Deportivo Solana', 1.3, 0.8),
      club('Racing Almirez', 1.1, 0.9),
      club('CD Torrealta', 1.0, 1.0),
      club('UD Peñasco', 0.9, 1.1),
    ],
  },
  {
    sport: 'football',
    goals: FOOTBALL_GOALS,
    category: { id: 'sim:category:germany', name: 'Germany' },
    tournament: { id: 'sim:tournament:ger-1', name: 'Erste Liga' },
    clubs: [
      club('FC Altenburg', 1.3, 0.8),
      club('SV Lindenhof', 1.1, 0.95),
      club('TSV Bergstadt', 0.95, 1.05),
      club('Eintracht Wiesental', 0.85, 1.15),
    ],
  },
  {
    sport: 'ice_hockey',
    goals: ICE_HOCKEY_GOALS,
    category: { id: 'sim:category:nordic', name: 'Nordic' },
    tournament: { id: 'sim:tournament:nordic-hockey', name: 'Nordic Ice League' },
    clubs: [
      club('Frostvik Wolves', 1.2, 0.85),
      club('Lakeholm Bears', 1.05, 0.95),
      club('Granhed Falcons', 0.95, 1.05),
      club('Norrby Storm', 0.85, 1.15),
    ],
  },
];

/** Kick-off hours (UTC) a league day uses. */
const KICK_OFF_HOURS = [12, 14, 16, 18, 20];
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface ScheduledMatch {
  /** Numbers the match's own random stream (script.matchRng). */
  number: number;
  sport: SimulatedSport;
  fixture: Fixture;
  /** Expected goals from the league's averages and the two sides' strengths. */
  goals: ExpectedGoals;
}

function expectedGoalsIn(league: League, home: TeamStrength, away: TeamStrength): ExpectedGoals {
  return { home: league.goals.home * home.attack * away.defence, away: league.goals.away * away.attack * home.defence };
}

/** Pairs a league's clubs for one round, in an order drawn from the stream. */
function round(rng: Rng, clubs: readonly Club[]): [Club, Club][] {
  const order = [...clubs];
  for (let i = order.length - 1; i > 0; i--) {
    const j = uniformInt(rng, i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return Array.from({ length: Math.floor(order.length / 2) }, (_, i) => [order[2 * i]!, order[2 * i + 1]!]);
}

function fixtureOf(league: League, home: Club, away: Club, id: string, startTime: number): Fixture {
  const competitor = (c: Club) => ({ id: `sim:competitor:${c.name.toLowerCase().replace(/[^a-z]+/g, '-')}`, name: c.name });
  return {
    event_id: id,
    sport: league.sport,
    category: league.category,
    tournament: league.tournament,
    competitors: [competitor(home), competitor(away)],
    start_time: startTime,
  };
}

/**
 * A round of every league on each of `days` days from `from`'s day, and a first round kicking off
 * around `from` itself (one match already under way, others soon), so a fresh demo has live play.
 */
export function scheduleFixtures(rng: Rng, from: number, days: number, prefix: string): ScheduledMatch[] {
  const matches: ScheduledMatch[] = [];
  const add = (league: League, pair: [Club, Club], startTime: number) => {
    const number = matches.length + 1;
    const fixture = fixtureOf(league, pair[0], pair[1], `${prefix}:match:${number}`, startTime);
    matches.push({ number, sport: league.sport, fixture, goals: expectedGoalsIn(league, pair[0].strength, pair[1].strength) });
  };
  const firstRound = LEAGUES.flatMap((league) => round(rng, league.clubs).map((pair) => ({ league, pair })));
  firstRound.forEach(({ league, pair }, index) => add(league, pair, from + (index - 1) * 20 * 60_000));
  const midnight = Math.floor(from / DAY_MS) * DAY_MS;
  for (let day = 1; day <= days; day++)
    for (const league of LEAGUES)
      for (const pair of round(rng, league.clubs))
        add(league, pair, midnight + day * DAY_MS + KICK_OFF_HOURS[uniformInt(rng, KICK_OFF_HOURS.length)]! * HOUR_MS);
  return matches;
}
