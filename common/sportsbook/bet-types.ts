/**
 * Bet types and the lines they stand for (issue 14), shared so the slip can show the line count and
 * total stake as the server will compute them: a slip of n selections is placed as singles
 * (n lines of one), one multiple (one line of all n), a k/n system (every k-fold of the n), or a
 * named system (every fold from its smallest size up to n). Each line carries the stake per line.
 */
export const NAMED_SYSTEMS = {
  trixie: { selections: 3, smallest: 2 },
  patent: { selections: 3, smallest: 1 },
  yankee: { selections: 4, smallest: 2 },
  lucky15: { selections: 4, smallest: 1 },
  canadian: { selections: 5, smallest: 2 },
  lucky31: { selections: 5, smallest: 1 },
  heinz: { selections: 6, smallest: 2 },
  lucky63: { selections: 6, smallest: 1 },
  super_heinz: { selections: 7, smallest: 2 },
  goliath: { selections: 8, smallest: 2 },
} as const satisfies Record<string, { selections: number; smallest: number }>;

export type NamedSystem = keyof typeof NAMED_SYSTEMS;

export type BetType =
  | { kind: 'single' }
  | { kind: 'multiple' }
  /** k/n: every combination of `size` of the slip's selections (2/3, 2/4, 3/5 …). */
  | { kind: 'system'; size: number }
  | { kind: 'named'; name: NamedSystem };

/** A line: the indices of the slip's selections it combines, ascending. */
export type Line = readonly number[];

/** Every k-combination of 0 … n − 1, in lexicographic order. */
export function combinations(n: number, k: number): number[][] {
  if (k === 0) return [[]];
  const result: number[][] = [];
  const extend = (prefix: number[], start: number): void => {
    if (prefix.length === k) {
      result.push(prefix);
      return;
    }
    // Leave room for the elements still to pick.
    for (let next = start; next <= n - (k - prefix.length); next++) extend([...prefix, next], next + 1);
  };
  extend([], 0);
  return result;
}

/** The fold sizes a bet type takes from n selections; empty when the type does not fit n. */
export function foldSizes(betType: BetType, n: number): number[] {
  switch (betType.kind) {
    case 'single':
      return n >= 1 ? [1] : [];
    case 'multiple':
      return n >= 2 ? [n] : [];
    case 'system':
      return betType.size >= 2 && betType.size < n ? [betType.size] : [];
    case 'named': {
      const system = NAMED_SYSTEMS[betType.name];
      if (n !== system.selections) return [];
      return Array.from({ length: n - system.smallest + 1 }, (_, index) => system.smallest + index);
    }
  }
}

export function expandLines(betType: BetType, selectionCount: number): Line[] {
  return foldSizes(betType, selectionCount).flatMap((size) => combinations(selectionCount, size));
}

/** How many selections a bet type needs: a range for open types, one number for a named system. */
export function selectionRange(betType: BetType): { min: number; max: number } {
  switch (betType.kind) {
    case 'single':
      return { min: 1, max: Infinity };
    case 'multiple':
      return { min: 2, max: Infinity };
    case 'system':
      return { min: betType.size + 1, max: Infinity };
    case 'named':
      return { min: NAMED_SYSTEMS[betType.name].selections, max: NAMED_SYSTEMS[betType.name].selections };
  }
}

/** The most selections a slip takes (the server's validateSlip and the app's slip agree). */
export const SLIP_MAX_SELECTIONS = 20;

/** A bet type on the wire: single, multiple, a k/n system as `system:2`, or a named system (`trixie`, `lucky15` …). */
export function parseBetType(text: string): BetType | undefined {
  if (text === 'single' || text === 'multiple') return { kind: text };
  const system = /^system:(\d{1,2})$/.exec(text);
  if (system) return { kind: 'system', size: Number(system[1]) };
  return Object.hasOwn(NAMED_SYSTEMS, text) ? { kind: 'named', name: text as NamedSystem } : undefined;
}

export function betTypeText(betType: BetType): string {
  if (betType.kind === 'system') return `system:${betType.size}`;
  return betType.kind === 'named' ? betType.name : betType.kind;
}
