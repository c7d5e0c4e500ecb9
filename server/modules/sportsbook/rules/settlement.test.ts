import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIN_ODDS, ODDS_SCALE } from '#common/sportsbook/odds';
import { ratio } from '#common/sportsbook/ratio';
import { expandLines, type BetType } from '#common/sportsbook/bet-types';
import { resolveMarket, type FootballResult } from './resolve';
import { legFactor, LOST, settleLine, settleTicket, VOID, WON, type OutcomeResult, type SettledLeg } from './settlement';
import { quoteSlip, type SlipSelection } from './slip';

const odds = fc.bigInt({ min: MIN_ODDS, max: 200_000n });
const stake = fc.bigInt({ min: 1n, max: 10n ** 9n });
const simpleResult = fc.constantFrom(WON, LOST, VOID);

function football(home: number, away: number): FootballResult {
  return { sport: 'football', halfTime: { home: 0, away: 0 }, fullTime: { home, away } };
}

function payout(stakeMinor: bigint, legs: SettledLeg[]): bigint {
  const line = settleLine(stakeMinor, legs);
  if (line.state !== 'settled') throw new Error('expected a settled line');
  return line.payoutMinor;
}

describe('issue 14 settlement: return = stake × void + stake × (1 − void) × (odds × dead heat if won)', () => {
  it('a won single returns stake × odds rounded down, a lost one nothing, a void one the stake', () => {
    fc.assert(
      fc.property(stake, odds, (s, o) => {
        const won = payout(s, [{ oddsUnits: o, result: WON }]);
        expect(won * ODDS_SCALE <= s * o && (won + 1n) * ODDS_SCALE > s * o).toBe(true);
        expect(payout(s, [{ oddsUnits: o, result: LOST }])).toBe(0n);
        expect(payout(s, [{ oddsUnits: o, result: VOID }])).toBe(s);
      }),
    );
  });

  it('a dead heat at ½ pays as half the stake winning and half losing', () => {
    fc.assert(
      fc.property(stake, odds, (s, o) => {
        const deadHeat: OutcomeResult = { won: true, voidFactor: ratio(0n), deadHeatFactor: ratio(1n, 2n) };
        const halves = payout(s, [{ oddsUnits: o, result: WON }]) + payout(s, [{ oddsUnits: o, result: LOST }]);
        expect(payout(2n * s, [{ oddsUnits: o, result: deadHeat }])).toBe(halves);
      }),
    );
  });

  it('a multiple counts a void leg at 1.00: it returns what the multiple without that leg returns', () => {
    fc.assert(
      fc.property(stake, fc.array(fc.tuple(odds, simpleResult), { minLength: 1, maxLength: 6 }), odds, (s, legs, voidOdds) => {
        const settled = legs.map(([o, result]) => ({ oddsUnits: o, result }));
        expect(payout(s, [...settled, { oddsUnits: voidOdds, result: VOID }])).toBe(payout(s, settled));
      }),
    );
  });

  it('an Asian quarter line settles as two half stakes on its neighbouring lines (-0.25 → 0 and -0.5)', () => {
    const quarterLines = ['-1.75', '-1.25', '-0.75', '-0.25', '0.25', '0.75', '1.25'];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 5 }),
        fc.constantFrom(...quarterLines),
        fc.constantFrom('1', '2'),
        stake,
        odds,
        (home, away, hcp, side, halfStake, o) => {
          const whole = resolveMarket(football(home, away), 'asian_handicap', { hcp })[side]!;
          const [lower, upper] = [Number(hcp) - 0.25, Number(hcp) + 0.25].map((line) => String(line));
          const halves =
            payout(halfStake, [
              { oddsUnits: o, result: resolveMarket(football(home, away), 'asian_handicap', { hcp: lower! })[side]! },
            ]) +
            payout(halfStake, [
              { oddsUnits: o, result: resolveMarket(football(home, away), 'asian_handicap', { hcp: upper! })[side]! },
            ]);
          const combined = payout(2n * halfStake, [{ oddsUnits: o, result: whole }]);
          // Rounded once instead of twice: at most one minor unit more, never less.
          expect(combined - halves >= 0n && combined - halves <= 1n).toBe(true);
        },
      ),
    );
  });

  it('on AH -0.25 a draw is half lost: half the stake comes back', () => {
    const result = resolveMarket(football(1, 1), 'asian_handicap', { hcp: '-0.25' })['1']!;
    expect(payout(1_000n, [{ oddsUnits: 19_000n, result }])).toBe(500n);
    const awaySide = resolveMarket(football(1, 1), 'asian_handicap', { hcp: '-0.25' })['2']!;
    // The other side is half won: half the stake back, half at the odds.
    expect(payout(1_000n, [{ oddsUnits: 19_000n, result: awaySide }])).toBe(500n + 950n);
  });

  it('leg factors lie between 0 and odds: a bet never returns more than all of it winning', () => {
    fc.assert(
      fc.property(
        odds,
        fc.boolean(),
        fc.constantFrom(0n, 1n, 2n),
        fc.integer({ min: 1, max: 4 }),
        (o, won, halves, deadHeatDen) => {
          const factor = legFactor(o, { won, voidFactor: ratio(halves, 2n), deadHeatFactor: ratio(1n, BigInt(deadHeatDen)) });
          expect(factor.num >= 0n).toBe(true);
          expect(factor.num * ODDS_SCALE <= o * factor.den).toBe(true);
        },
      ),
    );
  });

  it('refuses factors outside [0, 1]', () => {
    expect(() => legFactor(20_000n, { won: true, voidFactor: ratio(3n, 2n), deadHeatFactor: ratio(1n) })).toThrow(RangeError);
    expect(() => legFactor(20_000n, { won: true, voidFactor: ratio(0n), deadHeatFactor: ratio(0n) })).toThrow(RangeError);
  });
});

describe('issue 14 settlement: lines and tickets', () => {
  it('a line with an unsettled leg stays open unless a settled leg already lost it', () => {
    expect(settleLine(100n, [{ oddsUnits: 20_000n, result: WON }, { oddsUnits: 20_000n }])).toEqual({ state: 'open' });
    expect(settleLine(100n, [{ oddsUnits: 20_000n, result: LOST }, { oddsUnits: 20_000n }])).toEqual({
      state: 'settled',
      payoutMinor: 0n,
    });
  });

  it('a ticket that wins everything pays what the slip quoted as its potential return', () => {
    const betTypes: BetType[] = [
      { kind: 'single' },
      { kind: 'multiple' },
      { kind: 'system', size: 2 },
      { kind: 'named', name: 'lucky15' },
    ];
    fc.assert(
      fc.property(fc.array(odds, { minLength: 4, maxLength: 4 }), stake, fc.constantFrom(...betTypes), (prices, s, betType) => {
        const selections: SlipSelection[] = prices.map((o, i) => ({
          eventId: `e${i}`,
          marketKey: '1x2',
          outcomeId: '1',
          oddsUnits: o,
        }));
        const lines = expandLines(betType, 4).map((line) => line.map((index) => ({ oddsUnits: prices[index]!, result: WON })));
        const ticket = settleTicket(s, lines);
        expect(ticket).toMatchObject({ state: 'settled', payoutMinor: quoteSlip(selections, betType, s).potentialReturnMinor });
      }),
    );
  });

  it('a Yankee with one losing selection pays exactly a Trixie on the other three (systems settle line by line)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(odds, simpleResult), { minLength: 3, maxLength: 3 }), odds, stake, (others, loserOdds, s) => {
        const legs = [...others.map(([o, result]) => ({ oddsUnits: o, result })), { oddsUnits: loserOdds, result: LOST }];
        const linesOf = (betType: BetType, pool: SettledLeg[]) =>
          expandLines(betType, pool.length).map((line) => line.map((i) => pool[i]!));
        const yankee = settleTicket(s, linesOf({ kind: 'named', name: 'yankee' }, legs));
        const trixie = settleTicket(s, linesOf({ kind: 'named', name: 'trixie' }, legs.slice(0, 3)));
        expect(yankee.state === 'settled' && trixie.state === 'settled' && yankee.payoutMinor === trixie.payoutMinor).toBe(true);
      }),
    );
  });

  it('a ticket is void when everything was voided, lost when nothing came back, open while a line is', () => {
    const legs = (result?: OutcomeResult) => [[{ oddsUnits: 20_000n, result }], [{ oddsUnits: 30_000n, result }]];
    expect(settleTicket(500n, legs(VOID))).toEqual({ state: 'settled', payoutMinor: 1_000n, outcome: 'void' });
    expect(settleTicket(500n, legs(LOST))).toEqual({ state: 'settled', payoutMinor: 0n, outcome: 'lost' });
    expect(settleTicket(500n, legs())).toMatchObject({ state: 'open', openLines: 2 });
    expect(settleTicket(500n, [[{ oddsUnits: 20_000n, result: WON }], [{ oddsUnits: 30_000n, result: LOST }]])).toMatchObject({
      outcome: 'partial',
    });
  });
});
