/**
 * The simulator's fixture list (issue 14: "it schedules realistic fixtures for the coming days"):
 * football leagues of four countries, an ice hockey and a basketball league and a tennis
 * tournament, each with its clubs' (players') strengths, playing rounds on each of
 * the coming days at the usual kick-off hours. A seed replays the same schedule. Times are in the
 * simulator's clock (speed factor applied), so kick-offs look like real ones at any speed.
 */
import { uniformInt, type Rng } from '#common/games/fair';
import type { Fixture } from '../feed/fixtures';
import { matchLengthMinutes, type SimulatedSport } from './match-feed';
import type { ExpectedGoals, TeamStrength } from './poisson';
import { matchRng } from './script';

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
/** Points of a basketball league's game in regulation. */
const BASKETBALL_POINTS: ExpectedGoals = { home: 112, away: 108 };
/**
 * Tennis: each player's chance to hold serve against an average returner. A player's "attack" is
 * their serve, their "defence" how much their return lets the other hold (below 1: a good returner).
 */
const TENNIS_HOLD: ExpectedGoals = { home: 0.78, away: 0.78 };

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
  {
    sport: 'basketball',
    goals: BASKETBALL_POINTS,
    category: { id: 'sim:category:europe', name: 'Europe' },
    tournament: { id: 'sim:tournament:continental-basketball', name: 'Continental Basketball League' },
    clubs: [
      club('Portavera Sharks', 1.05, 0.96),
      club('Kalmberg Titans', 1.02, 0.98),
      club('Sant Oriol Comets', 0.98, 1.02),
      club('Dravna Lynx', 0.95, 1.04),
    ],
  },
  {
    sport: 'tennis',
    goals: TENNIS_HOLD,
    category: { id: 'sim:category:world', name: 'World' },
    tournament: { id: 'sim:tournament:riviera-open', name: 'Riviera Open' },
    clubs: [
      club('Tomas Velden', 1.12, 0.92),
      club('Aleix Moravec', 1.08, 0.95),
      club('Jonah Ferrand', 1.04, 0.98),
      club('Luca Brenner', 1.0, 1.0),
      club('Mateo Lindqvist', 0.98, 1.02),
      club('Elias Okafor', 0.96, 1.04),
      club('Pavel Santoro', 0.94, 1.06),
      club('Hugo Marchetti', 0.92, 1.08),
    ],
  },
];

const DAY_MS = 86_400_000;
/** No match lasts longer: the days before `from` that may still have one under way. */
const LONGEST_MATCH_MS = 3 * 3_600_000;

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

function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const order = [...items];
  for (let i = order.length - 1; i > 0; i--) {
    const j = uniformInt(rng, i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** Pairs a league's clubs for one round, in an order drawn from the stream. */
function round(rng: Rng, clubs: readonly Club[]): [Club, Club][] {
  const order = shuffled(rng, clubs);
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
 * A round of every league each day, its matches one after another around the clock (so a demo has
 * live play whenever it is opened), from the matches still under way at `from` to `days` days
 * ahead. Each day's round is drawn from the seed and the day alone: a simulator started again
 * schedules the same fixtures under the same ids, and a site that applied their messages before
 * finds them where it left them.
 */
export function scheduleFixtures(seed: string, from: number, days: number, prefix: string): ScheduledMatch[] {
  const matches: ScheduledMatch[] = [];
  const firstDay = Math.floor((from - LONGEST_MATCH_MS) / DAY_MS);
  for (let day = firstDay; day <= firstDay + days + 1; day++) {
    const rng = matchRng(`${seed}:schedule`, day);
    const pairs = shuffled(
      rng,
      LEAGUES.flatMap((league) => round(rng, league.clubs).map((pair) => ({ league, pair }))),
    );
    const slotMs = DAY_MS / pairs.length;
    pairs.forEach(({ league, pair: [home, away] }, index) => {
      const startTime = day * DAY_MS + Math.round(index * slotMs);
      // A match over before `from` is not scheduled: the feed starts with what is still to play.
      if (startTime + matchLengthMinutes(league.sport) * 60_000 <= from || startTime > from + days * DAY_MS) return;
      const date = new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '');
      matches.push({
        // Unique per day and slot: the match's own random stream (script.matchRng).
        number: day * 100 + index,
        sport: league.sport,
        fixture: fixtureOf(league, home, away, `${prefix}:${date}:${index}`, startTime),
        goals: expectedGoalsIn(league, home.strength, away.strength),
      });
    });
  }
  return matches;
}
