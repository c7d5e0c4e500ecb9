/**
 * Sugar Blast (cluster slot), Plinko Drop and Snowball Keno (issue 15: "a cluster slot, a plinko
 * or keno"): each return meets the catalogue's RTP (exactly where it can be computed, by a seeded
 * simulation for the cluster slot's cascades), and the rules hold.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ReturnStats } from '#common/games/statistics';
import { cryptoRng } from '../rng';
import { CLUSTER_COLUMNS, CLUSTER_ROWS, collapse, findClusters, playCluster, SUGAR_BLAST, type Grid } from './cluster';
import { dropBall, PLINKO_DROP, PLINKO_RETURNS, PLINKO_RISKS, PLINKO_ROWS } from './plinko';
import { drawNumbers, hitProbability, KENO_PAYS, KENO_RETURNS, playKeno, SNOWBALL_KENO } from './keno';
import { seededRng } from './test-rng';

const catalogueRtp = (id: string) =>
  (
    JSON.parse(readFileSync(new URL(`../../../content/shared/_all/games/${id}.json`, import.meta.url), 'utf8')) as {
      game_params: { rtp: number };
    }
  ).game_params.rtp / 100;

describe('Sugar Blast (cluster pays with cascades)', () => {
  /** A grid from rows of one-letter candies (H heart, S star, L lollipop, G gumdrop, W wrapped, M mint), row 0 on top. */
  function grid(...rows: string[]): Grid {
    const names: Record<string, string> = { H: 'heart', S: 'star-candy', L: 'lollipop', G: 'gumdrop', W: 'wrapped', M: 'mint' };
    return Array.from({ length: CLUSTER_COLUMNS }, (_, column) => rows.map((row) => names[row[column]!]!));
  }

  it('five or more candies joined up, down, left or right make a cluster; diagonals do not join', () => {
    const clusters = findClusters(grid('HHGSLM', 'HGSLMW', 'HHSLMW', 'GSLMWG', 'SLMWGH'));
    expect(clusters).toHaveLength(1);
    expect(clusters[0]?.symbol).toBe('heart');
    expect(clusters[0]?.cells).toHaveLength(5);
    // A diagonal line of six lollipops is no cluster.
    expect(findClusters(grid('LSGWMH', 'SLGWMH', 'SGLWMH', 'SGWLMH', 'SGWMLH')).map((cluster) => cluster.symbol)).not.toContain(
      'lollipop',
    );
  });

  it('paid candies burst, the ones above fall and new ones fill the top', () => {
    const before = grid('HSGWML', 'SGWMLH', 'GWMLHS', 'WMLHSG', 'MLHSGW');
    const after = collapse(
      before,
      [
        [0, 4],
        [0, 3],
      ],
      () => 0,
    );
    expect(after[0]).toEqual(['heart', 'heart', 'heart', 'star-candy', 'gumdrop']);
    expect(after[1]).toEqual(before[1]);
  });

  it('a round pays the sum of its cascades’ clusters and ends on a grid without one', () => {
    const view = playCluster(1000n, seededRng(11));
    const last = view.steps.at(-1)!;
    expect(last.clusters).toEqual([]);
    expect(findClusters(last.grid)).toEqual([]);
    const total = view.steps.flatMap((step) => step.clusters).reduce((sum, cluster) => sum + BigInt(cluster.win), 0n);
    expect(view.win).toBe(total.toString());
    expect(last.grid.every((column) => column.length === CLUSTER_ROWS)).toBe(true);
  });

  it('60 000 seeded rounds return the catalogue RTP (96.2 %) within 4.5 standard errors', () => {
    const stats = new ReturnStats();
    const rng = seededRng(2026);
    for (let round = 0; round < 60_000; round++) stats.add(10_000n, BigInt(playCluster(10_000n, rng).win));
    expect(Math.abs(stats.rtp - catalogueRtp('sugar-blast'))).toBeLessThan(4.5 * stats.standardError);
  });

  it('its stake is 0.20 … 100.00 (catalogue min_bet)', () => {
    expect(SUGAR_BLAST.start({ stake: '10' }, cryptoRng)).toBeUndefined();
    expect(SUGAR_BLAST.start({ stake: '20' }, cryptoRng)?.stakeMinor).toBe(20n);
  });
});

describe('Plinko Drop', () => {
  it.each(PLINKO_RISKS)('%s risk: the exact return is the catalogue RTP (97 %%) within 0.5 %%', (risk) => {
    expect(Math.abs(PLINKO_RETURNS[risk] - catalogueRtp('plinko-drop'))).toBeLessThan(0.005);
  });

  it('the ball’s slot is the number of rights on its 12-row path, and pays that slot’s multiplier', () => {
    for (let drop = 0; drop < 200; drop++) {
      const view = dropBall(1000n, 'high', cryptoRng);
      expect(view.path).toHaveLength(PLINKO_ROWS);
      expect(view.slot).toBe(view.path.filter((step) => step === 1).length);
      expect(view.win).toBe(((1000n * BigInt(view.multipliers[view.slot]!)) / 100n).toString());
    }
  });

  it('100 000 seeded drops per risk agree with the exact return within 4.5 standard errors', () => {
    for (const risk of PLINKO_RISKS) {
      const stats = new ReturnStats();
      const rng = seededRng(risk.length);
      for (let drop = 0; drop < 100_000; drop++) stats.add(10_000n, BigInt(dropBall(10_000n, risk, rng).win));
      expect(Math.abs(stats.rtp - PLINKO_RETURNS[risk]), risk).toBeLessThan(4.5 * stats.standardError);
    }
  });

  it('an unknown risk or a bad stake is refused', () => {
    expect(PLINKO_DROP.start({ stake: '100', risk: 'extreme' }, cryptoRng)).toBeUndefined();
    expect(PLINKO_DROP.start({ stake: '0', risk: 'low' }, cryptoRng)).toBeUndefined();
  });
});

describe('Snowball Keno', () => {
  it('the hit odds of every pick count add up to 1', () => {
    for (let picks = 1; picks <= 10; picks++) {
      const sum = Array.from({ length: picks + 1 }, (_, hits) => hitProbability(picks, hits)).reduce((a, b) => a + b, 0);
      expect(sum).toBeCloseTo(1, 12);
    }
  });

  it.each(KENO_RETURNS.map((value, index) => [index + 1, value] as const))(
    '%i picks: the exact return is the catalogue RTP (95 %%) within 0.5 %%',
    (_picks, value) => {
      expect(Math.abs(value - catalogueRtp('snowball-keno'))).toBeLessThan(0.005);
    },
  );

  it('ten different numbers of 1 … 40 are drawn; the hits pay the pick count’s table', () => {
    for (let draw = 0; draw < 200; draw++) {
      const drawn = drawNumbers(cryptoRng);
      expect(new Set(drawn).size).toBe(10);
      expect(drawn.every((number) => number >= 1 && number <= 40)).toBe(true);
    }
    const view = playKeno(1000n, [1, 2, 3], cryptoRng);
    expect(view.hits).toEqual(view.picks.filter((number) => view.drawn.includes(number)));
    expect(view.multiplier).toBe(KENO_PAYS[2]![view.hits.length]);
  });

  it('100 000 seeded draws with 5 picks agree with the exact return within 4.5 standard errors', () => {
    const stats = new ReturnStats();
    const rng = seededRng(5);
    for (let draw = 0; draw < 100_000; draw++) stats.add(10_000n, BigInt(playKeno(10_000n, [4, 9, 17, 28, 33], rng).win));
    expect(Math.abs(stats.rtp - KENO_RETURNS[4]!)).toBeLessThan(4.5 * stats.standardError);
  });

  it('no picks, more than 10, repeats or numbers off the board are refused', () => {
    for (const picks of [[], [1, 1], [0], [41], [1.5], Array.from({ length: 11 }, (_, index) => index + 1), 'x'])
      expect(SNOWBALL_KENO.start({ stake: '100', picks }, cryptoRng)).toBeUndefined();
    expect(SNOWBALL_KENO.start({ stake: '100', picks: [40] }, cryptoRng)?.done).toBe(true);
  });
});
