/**
 * The single-request in-house games as the round service plays them: a bet read from the
 * player's JSON, checked, and played on one fair stream. Pure: the verification of a past round
 * runs the very same function on the revealed seeds.
 */
import { z } from 'zod';
import { minorToAmount } from '#common/money';
import { diceWinPayout, playDice } from '#common/games/dice';
import { InvalidBetError } from '#common/games/errors';
import { FairRng, type RoundSeeds } from '#common/games/fair';
import { playRoulette, validateRouletteBets, type RouletteBet } from '#common/games/roulette';
import { playCascadeSlot } from '#common/games/slot-cascade';
import { playClassicSlot } from '#common/games/slot-classic';
import { playFruitsSlot } from '#common/games/slot-fruits';
import { BetParamError } from '../round-intake';

/** Engines a round of which is one request: bet, draw, settle. */
export const SINGLE_REQUEST_ENGINES = ['dice', 'roulette', 'slot-classic', 'slot-fruits', 'slot-cascade'] as const;
export type SingleRequestEngine = (typeof SINGLE_REQUEST_ENGINES)[number];

export function isSingleRequestEngine(engine: string | undefined): engine is SingleRequestEngine {
  return (SINGLE_REQUEST_ENGINES as readonly string[]).includes(engine ?? '');
}

// The intake translates this error into the answer, so it is the intake's.
export { BetParamError } from '../round-intake';

/** A positive amount with at most two decimals ("1", "0.10"); anything else is a wrong stake. */
export function parseStake(value: unknown): bigint {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,13}(\.\d{1,2})?$/.test(text.trim()))
    throw new BetParamError('stake', 'the stake must be a positive amount with at most two decimals');
  const [units = '0', cents = ''] = text.trim().split('.');
  const minor = BigInt(units) * 100n + BigInt(cents.padEnd(2, '0'));
  if (minor <= 0n) throw new BetParamError('stake', 'the stake must be positive');
  return minor;
}

/** A dice target "50.00" (or 50) in hundredths. */
function parseTarget(value: unknown): number {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,2}(\.\d{1,2})?$/.test(text.trim()))
    throw new BetParamError('bet', 'the target must be from 0.00 to 99.99');
  const [units = '0', cents = ''] = text.trim().split('.');
  return Number(units) * 100 + Number(cents.padEnd(2, '0'));
}

const amount = z.union([z.string().max(20), z.number()]);
const diceSchema = z
  .object({ stake: amount, direction: z.enum(['under', 'over']), target: z.union([z.string().max(8), z.number()]) })
  .strict();
const slotSchema = z.object({ stake: amount }).strict();
const rouletteBetSchema = z
  .object({
    kind: z.enum([
      'straight',
      'split',
      'street',
      'corner',
      'line',
      'dozen',
      'column',
      'red',
      'black',
      'odd',
      'even',
      'low',
      'high',
    ]),
    numbers: z.array(z.number().int()).max(6).optional(),
    index: z.number().int().optional(),
    stake: amount,
  })
  .strict();
const rouletteSchema = z.object({ bets: z.array(rouletteBetSchema).min(1).max(200) }).strict();

/** A bet ready to play: what it stakes in all, its normal form (stored and hashed), and the play. */
export interface PreparedBet {
  stakeMinor: bigint;
  /** The bet in its normal JSON form (amounts as "1.00"): stored with the round, hashed for replays, played again to verify. */
  normal: Record<string, unknown>;
  play(seeds: RoundSeeds): { payoutMinor: bigint; outcome: unknown };
}

/** The bet's JSON text parsed; BetParamError('bet') when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new BetParamError('bet', 'the bet must be JSON');
  }
}

/** A bet checked by its schema; BetParamError naming stake or bet when it fails. */
export function schemaParse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const isStake = result.error.issues.some((issue) => issue.path.at(-1) === 'stake');
    throw new BetParamError(isStake ? 'stake' : 'bet', result.error.issues[0]?.message ?? 'invalid bet');
  }
  return result.data;
}

function rethrowRules<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof InvalidBetError) throw new BetParamError('bet', error.message);
    throw error;
  }
}

/** Reads and checks a bet (JSON text or an already parsed value) for an engine; throws BetParamError. */
export function prepareBet(engine: SingleRequestEngine, bet: string | unknown): PreparedBet {
  const raw = typeof bet === 'string' ? parseJson(bet) : bet;
  const rng = (seeds: RoundSeeds) => new FairRng(seeds);
  switch (engine) {
    case 'dice': {
      const parsed = schemaParse(diceSchema, raw);
      const diceBet = {
        stakeMinor: parseStake(parsed.stake),
        direction: parsed.direction,
        targetHundredths: parseTarget(parsed.target),
      };
      // Checks the target and side before any draw.
      rethrowRules(() => diceWinPayout(diceBet));
      return {
        stakeMinor: diceBet.stakeMinor,
        normal: {
          stake: minorToAmount(diceBet.stakeMinor),
          direction: diceBet.direction,
          target: minorToAmount(BigInt(diceBet.targetHundredths)),
        },
        play: (seeds) => {
          const outcome = playDice(diceBet, rng(seeds));
          return { payoutMinor: outcome.payoutMinor, outcome };
        },
      };
    }
    case 'roulette': {
      const parsed = schemaParse(rouletteSchema, raw);
      const bets = parsed.bets.map((item) => {
        const stakeMinor = parseStake(item.stake);
        if (item.kind === 'dozen' || item.kind === 'column')
          return { kind: item.kind, index: item.index, stakeMinor } as RouletteBet;
        if (item.numbers === undefined && ['straight', 'split', 'street', 'corner', 'line'].includes(item.kind))
          throw new BetParamError('bet', `a ${item.kind} bet needs its numbers`);
        return (
          item.numbers === undefined ? { kind: item.kind, stakeMinor } : { kind: item.kind, numbers: item.numbers, stakeMinor }
        ) as RouletteBet;
      });
      rethrowRules(() => validateRouletteBets(bets));
      const stakeMinor = bets.reduce((sum, item) => sum + item.stakeMinor, 0n);
      return {
        stakeMinor,
        normal: { bets: bets.map(({ stakeMinor: itemStake, ...item }) => ({ ...item, stake: minorToAmount(itemStake) })) },
        play: (seeds) => {
          const outcome = playRoulette(bets, rng(seeds));
          return { payoutMinor: outcome.payoutMinor, outcome };
        },
      };
    }
    case 'slot-classic':
    case 'slot-fruits':
    case 'slot-cascade': {
      const parsed = schemaParse(slotSchema, raw);
      const stakeMinor = parseStake(parsed.stake);
      const spin = engine === 'slot-classic' ? playClassicSlot : engine === 'slot-fruits' ? playFruitsSlot : playCascadeSlot;
      return {
        stakeMinor,
        normal: { stake: minorToAmount(stakeMinor) },
        play: (seeds) => {
          const outcome = spin({ stakeMinor }, rng(seeds));
          return { payoutMinor: outcome.payoutMinor, outcome };
        },
      };
    }
  }
}

/** An engine's outcome as JSON: bigints become decimal strings (minor units). */
export function outcomeJson(outcome: unknown): unknown {
  return JSON.parse(JSON.stringify(outcome, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)));
}
