/**
 * The line slots' paylines: the row (0 top) of each reel, reel by reel. Data alone, so the game
 * client can draw a win's lines without bundling an engine (app/games/client/slot-reels.ts).
 */
/** The ten classic paylines (rows 0-2 top to bottom) that both line slots start from. */
export const TEN_PAYLINES: readonly (readonly number[])[] = [
  [1, 1, 1, 1, 1],
  [0, 0, 0, 0, 0],
  [2, 2, 2, 2, 2],
  [0, 1, 2, 1, 0],
  [2, 1, 0, 1, 2],
  [0, 0, 1, 2, 2],
  [2, 2, 1, 0, 0],
  [1, 0, 0, 0, 1],
  [1, 2, 2, 2, 1],
  [1, 0, 1, 2, 1],
];

/** Golden Reels' twenty lines: the ten common ones and ten of its own. */
export const FRUIT_PAYLINES: readonly (readonly number[])[] = [
  ...TEN_PAYLINES,
  [1, 2, 1, 0, 1],
  [0, 1, 0, 1, 0],
  [2, 1, 2, 1, 2],
  [1, 1, 0, 1, 1],
  [1, 1, 2, 1, 1],
  [0, 1, 1, 1, 0],
  [2, 1, 1, 1, 2],
  [0, 2, 0, 2, 0],
  [2, 0, 2, 0, 2],
  [0, 2, 2, 2, 0],
];
