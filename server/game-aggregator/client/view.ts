/**
 * How a title's client view plugs into the game client (docs/game-aggregator.md): the shell
 * draws the bar (name, mode, labelled balance), the stake selector, the main button and the
 * messages; a view draws the table or reels, may add its own controls, says what the main
 * button sends, and animates what a round's `view` (the title's RoundStep.view) shows.
 */
import type { Translate } from './i18n';

export interface RoundAnswer {
  round: { id: string; done: boolean; view: unknown; stake: string; win: string };
  balance: string;
}

export interface ViewContext {
  /** The view's own area. */
  stage: HTMLElement;
  /** Room for the view's controls beside the stake selector. */
  controls: HTMLElement;
  t: Translate;
  /** Formats minor units (a string of digits) in the session's currency and language. */
  money: (minor: string | bigint) => string;
  /** prefers-reduced-motion: no spinning, no counting, no falling; the result at once. */
  reducedMotion: boolean;
  /** The stake selected now, in minor units. */
  stake: () => bigint;
  /** Sends an action in an unfinished round (multi-step titles); undefined when refused (the shell shows why). */
  act: (roundId: string, input: unknown) => Promise<RoundAnswer | undefined>;
  /** Sets the labelled balance (a live table's bets and results move it outside the main button). */
  setBalance: (minor: string) => void;
  /** Shows a win counting up (the shell's win meter). */
  showWin: (minor: bigint, label?: string) => Promise<void>;
  /** A short line under the stage (free spins, hits…); empty clears it. */
  say: (text: string) => void;
  /** Waits, or not at all with reduced motion. */
  pause: (ms: number) => Promise<void>;
}

export interface ClientView {
  /** Text key of the main button (spin, drop, draw, deal…). */
  actionKey: string;
  /** Stake steps in minor units (the selector's choices); the shell starts at the first. */
  stakes: readonly bigint[];
  /** What the main button sends as the round's input, or undefined to refuse (the view says why). */
  input(stake: bigint): unknown;
  /** Animates a round's answer; the shell then shows the round's win and the balance. */
  present(answer: RoundAnswer): Promise<void>;
  /** A live table's view hides the shell's main button and stake selector (it bets on its own spots). */
  hidesMainButton?: boolean;
  /**
   * The view draws the last finished round again when the client comes back (a table whose
   * result stays on the felt); `present` then gets that round's answer with `done` true.
   */
  showsLastRound?: boolean;
}

export type ViewFactory = (context: ViewContext, game: string) => ClientView;
