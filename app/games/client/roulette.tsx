/**
 * European roulette (single request, engine "roulette"; common/games/roulette.ts): chips of a
 * chosen value go on the European layout — straight numbers 0–36, splits, streets, corners and
 * lines on the lines between the numbers, and the outside bets — then one games.play spins the
 * wheel. The pocket, its colour, the winning bets and the payout come from the round; the last
 * pockets of this session are kept in a strip. Clear, undo and repeat work on the board; the
 * total stake is checked against the game's limits by the server (a refused stake is the game
 * client's clear error line). No sounds. The board turns upright below 640px (roulette.css).
 */
import { useState, type CSSProperties, type ReactNode } from 'react';
import { amountToMinor, formatMoney, minorToAmount, money } from '#common/money';
import { ROULETTE_PAYS, pocketColor, type PocketColor, type RouletteBetKind } from '#common/games/roulette';
import { useI18n } from '~/i18n';
import { isAuthenticated } from '#common/api-contract';
import { useRootData } from '~/site-data';
import type { GameComponentProps, PlayResult, RoundView, Translate } from './shared';
import { RouletteWheel } from './roulette-wheel';
import { useHydrated } from '~/hooks/use-hydrated';

const CHIPS = ['0.10', '0.50', '1.00', '5.00', '25.00', '100.00'];
const OUTSIDE = ['low', 'even', 'red', 'black', 'odd', 'high'] as const;
const HISTORY_LENGTH = 15;

/** A place on the board a chip can go. */
interface Spot {
  key: string;
  kind: RouletteBetKind;
  numbers?: number[];
  index?: 1 | 2 | 3;
}
type Placement = Spot & { stakeMinor: bigint };

interface OutcomeView {
  pocket: number;
  color: PocketColor;
  results: { bet: { kind: RouletteBetKind; numbers?: number[]; index?: 1 | 2 | 3 }; isWin: boolean; payoutMinor: string }[];
}

/** Where an edge or corner spot sits on a number, with the layout lying down (zero on the left, 3 on top). */
type Edge = 't' | 'r' | 'b' | 'l' | 'tr' | 'tl' | 'br' | 'bl';

const spotKey = (kind: RouletteBetKind, extra: { numbers?: number[]; index?: number } = {}) =>
  extra.numbers ? `${kind}:${[...extra.numbers].sort((a, b) => a - b).join('-')}` : extra.index ? `${kind}:${extra.index}` : kind;

const spot = (kind: RouletteBetKind, extra: { numbers?: number[]; index?: 1 | 2 | 3 } = {}): Spot => ({
  key: spotKey(kind, extra),
  kind,
  ...extra,
});

/** The inside spots on a number's lines: to its neighbour above (n + 1), right (n + 3), the corner, and the street and line at the bottom row. */
function edgeSpots(n: number): { edge: Edge; spot: Spot }[] {
  const spots: { edge: Edge; spot: Spot }[] = [];
  const isTop = n % 3 === 0;
  const isBottom = n % 3 === 1;
  if (!isTop) spots.push({ edge: 't', spot: spot('split', { numbers: [n, n + 1] }) });
  if (n <= 33) spots.push({ edge: 'r', spot: spot('split', { numbers: [n, n + 3] }) });
  if (!isTop && n <= 32) spots.push({ edge: 'tr', spot: spot('corner', { numbers: [n, n + 1, n + 3, n + 4] }) });
  if (isBottom) spots.push({ edge: 'b', spot: spot('street', { numbers: [n, n + 1, n + 2] }) });
  if (isBottom && n <= 31) spots.push({ edge: 'br', spot: spot('line', { numbers: [n, n + 1, n + 2, n + 3, n + 4, n + 5] }) });
  if (n <= 3) spots.push({ edge: 'l', spot: spot('split', { numbers: [0, n] }) });
  if (n === 1)
    spots.push(
      { edge: 'tl', spot: spot('street', { numbers: [0, 1, 2] }) },
      { edge: 'bl', spot: spot('corner', { numbers: [0, 1, 2, 3] }) },
    );
  if (n === 2) spots.push({ edge: 'tl', spot: spot('street', { numbers: [0, 2, 3] }) });
  return spots;
}

/** Grid places of the board lying down (h: zero left, 12 columns, 2:1 right) and upright (v: zero on top, 12 rows, outside bets on the left). */
function place(h: [string, string], v: [string, string]): CSSProperties {
  return { '--hc': h[0], '--hr': h[1], '--vc': v[0], '--vr': v[1] } as CSSProperties;
}
const numberPlace = (n: number) =>
  place([String(1 + Math.ceil(n / 3)), String(3 - ((n - 1) % 3))], [String(3 + ((n - 1) % 3)), String(1 + Math.ceil(n / 3))]);

function compact(minor: bigint): string {
  return minor % 100n === 0n ? String(minor / 100n) : minorToAmount(minor);
}

/** The bet's name with its numbers, for labels and the list of winning bets. */
function spotLabel(t: Translate, item: Pick<Spot, 'kind' | 'numbers' | 'index'>): string {
  if (item.numbers) return t(`gamePlay.roulette.bet.${item.kind}`, { numbers: item.numbers.join('/') });
  if (item.kind === 'dozen')
    return t('gamePlay.roulette.bet.dozen', { from: (item.index ?? 1) * 12 - 11, to: (item.index ?? 1) * 12 });
  if (item.kind === 'column') return t('gamePlay.roulette.bet.column', { index: item.index ?? 1 });
  return t(`gamePlay.roulette.bet.${item.kind}`);
}

interface BoardState {
  placements: Placement[];
  /** The boards before each change, for undo. */
  undo: Placement[][];
}

export function RouletteGame({ play, minBet, maxBet }: GameComponentProps) {
  const { t } = useI18n();
  const root = useRootData();
  const chips = CHIPS.filter((value) => Number(value) >= Number(minBet) && Number(value) <= Number(maxBet));
  const [chip, setChip] = useState(chips.includes('1.00') ? '1.00' : (chips[0] ?? minBet));
  const [board, setBoard] = useState<BoardState>({ placements: [], undo: [] });
  const [lastBets, setLastBets] = useState<Placement[] | null>(null);
  const [isBusy, setBusy] = useState(false);
  const isHydrated = useHydrated();
  const [round, setRound] = useState<RoundView | null>(null);
  const [turns, setTurns] = useState(0);
  const [history, setHistory] = useState<{ id: string; pocket: number }[]>([]);

  const placements = board.placements;
  const currency =
    round?.stake.currency ??
    (isAuthenticated(root?.account) ? root?.account.balances?.balance_fun.currency : undefined) ??
    root?.site.defaultCurrency ??
    'EUR';
  const show = (minor: bigint) => formatMoney(money(minor, currency));
  const minMinor = amountToMinor(minBet);
  const maxMinor = amountToMinor(maxBet);

  /** The chips on each spot, in the order the spots were first bet. */
  const stakes = new Map<string, Placement>();
  for (const item of placements) {
    const existing = stakes.get(item.key);
    stakes.set(item.key, existing ? { ...existing, stakeMinor: existing.stakeMinor + item.stakeMinor } : item);
  }
  const total = placements.reduce((sum, item) => sum + item.stakeMinor, 0n);
  const isOutsideLimits = placements.length > 0 && (total < minMinor || total > maxMinor);

  const outcome = round?.outcome as OutcomeView | undefined;
  /** The board is the one just spun: its winning and losing bets are marked. */
  const isSpunBoard = outcome !== undefined && placements === lastBets;
  const settled = new Map<string, { isWin: boolean; payoutMinor: bigint }>();
  for (const result of outcome?.results ?? [])
    settled.set(spotKey(result.bet.kind, result.bet), { isWin: result.isWin, payoutMinor: BigInt(result.payoutMinor) });

  function change(next: (current: Placement[]) => Placement[]) {
    setBoard((current) => ({ placements: next(current.placements), undo: [...current.undo, current.placements].slice(-100) }));
  }

  function add(target: Spot) {
    if (isBusy) return;
    change((current) => [...current, { ...target, stakeMinor: amountToMinor(chip) }]);
  }

  function undo() {
    setBoard((current) =>
      current.undo.length === 0 ? current : { placements: current.undo.at(-1)!, undo: current.undo.slice(0, -1) },
    );
  }

  async function spin() {
    if (placements.length === 0) return;
    setBusy(true);
    const spun = placements;
    const bets = [...stakes.values()].map(({ kind, numbers, index, stakeMinor }) => ({
      kind,
      ...(numbers ? { numbers } : {}),
      ...(index ? { index } : {}),
      stake: minorToAmount(stakeMinor),
    }));
    const answer: PlayResult | undefined = await play({ bets });
    if (answer) {
      const pocket = (answer.round.outcome as OutcomeView).pocket;
      setRound(answer.round);
      setTurns((count) => count + 1);
      setLastBets(spun);
      setHistory((current) => [{ id: answer.round.id, pocket }, ...current].slice(0, HISTORY_LENGTH));
    }
    setBusy(false);
  }

  /** A chip marker and the win/loss mark of a spot. */
  const spotState = (key: string) => {
    const on = stakes.get(key)?.stakeMinor;
    const result = isSpunBoard ? settled.get(key) : undefined;
    return {
      on,
      className: result ? (result.isWin ? 'is-won' : 'is-lost') : '',
      won: result ? (result.isWin ? 'true' : 'false') : undefined,
    };
  };

  const spotButton = (target: Spot, className: string, content: ReactNode, style?: CSSProperties) => {
    const state = spotState(target.key);
    const label = spotLabel(t, target);
    return (
      <button
        key={target.key}
        type="button"
        className={`${className} ${state.className}`}
        style={style}
        data-bet={target.key}
        data-won={state.won}
        data-stake={state.on !== undefined ? minorToAmount(state.on) : undefined}
        aria-label={state.on !== undefined ? t('gamePlay.roulette.spotWithChips', { bet: label, amount: show(state.on) }) : label}
        title={label}
        disabled={isBusy}
        onClick={() => add(target)}
      >
        {content}
        {state.on !== undefined && <span className="roulette-board__chip roulette-game__chip">{compact(state.on)}</span>}
      </button>
    );
  };

  const hitPocket = outcome?.pocket;
  const payout = round ? amountToMinor(round.payout.amount) : 0n;
  const wins = (outcome?.results ?? []).filter((result) => result.isWin);

  return (
    <section className="game-client__panel live-table roulette-game" data-roulette>
      <div className="roulette-game__stage">
        <RouletteWheel
          pocket={outcome?.pocket ?? null}
          turns={turns}
          className="roulette-game__wheel"
          ballClassName="roulette-game__ball"
        />
        <div className="roulette-game__outcome" aria-live="polite">
          {round && outcome ? (
            <>
              <span
                key={round.id}
                className={`live-roulette__pocket roulette-game__pocket is-${outcome.color}`}
                data-result-number={outcome.pocket}
                data-result-color={outcome.color}
              >
                {outcome.pocket}
              </span>
              <span className="roulette-game__pocket-name" data-result-text>
                {t('gamePlay.roulette.landed', { number: outcome.pocket, color: t(`gamePlay.roulette.color.${outcome.color}`) })}
              </span>
            </>
          ) : (
            <span className="roulette-game__idle">{t('gamePlay.roulette.idle')}</span>
          )}
        </div>
      </div>

      <ol className="live-table__history roulette-game__history" data-history aria-label={t('gamePlay.roulette.history')}>
        {history.length === 0 && <li className="roulette-game__history-empty">{t('gamePlay.roulette.noHistory')}</li>}
        {history.map((past) => (
          <li
            key={past.id}
            className={`live-table__chip live-roulette__past is-${pocketColor(past.pocket)}`}
            data-history-number={past.pocket}
            title={t(`gamePlay.roulette.color.${pocketColor(past.pocket)}`)}
          >
            {past.pocket}
          </li>
        ))}
      </ol>

      <div className="roulette-game__board" role="group" aria-label={t('gamePlay.roulette.board')}>
        {spotButton(
          spot('straight', { numbers: [0] }),
          `roulette-board__cell is-green roulette-game__item roulette-game__zero ${hitPocket === 0 ? 'is-hit' : ''}`,
          '0',
          place(['1', '1 / span 3'], ['3 / span 3', '1']),
        )}
        {Array.from({ length: 36 }, (_, i) => i + 1).map((n) => (
          <div key={n} className="roulette-game__item roulette-game__number" style={numberPlace(n)}>
            {spotButton(
              spot('straight', { numbers: [n] }),
              `roulette-board__cell is-${pocketColor(n)} roulette-game__straight ${hitPocket === n ? 'is-hit' : ''}`,
              n,
            )}
            {edgeSpots(n).map(({ edge, spot: target }) =>
              spotButton(target, `roulette-game__edge roulette-game__edge--${edge}`, null),
            )}
          </div>
        ))}
        {([3, 2, 1] as const).map((index) =>
          spotButton(
            spot('column', { index }),
            'roulette-board__cell roulette-board__outside roulette-game__item',
            '2:1',
            place(['14', String(4 - index)], [String(2 + index), '14']),
          ),
        )}
        {([1, 2, 3] as const).map((index) =>
          spotButton(
            spot('dozen', { index }),
            'roulette-board__cell roulette-board__outside roulette-game__item',
            t('gamePlay.roulette.board.dozen', { from: index * 12 - 11, to: index * 12 }),
            place([`${2 + 4 * (index - 1)} / span 4`, '4'], ['2', `${2 + 4 * (index - 1)} / span 4`]),
          ),
        )}
        {OUTSIDE.map((kind, i) =>
          spotButton(
            spot(kind),
            `roulette-board__cell roulette-board__outside roulette-game__item ${kind === 'red' || kind === 'black' ? `is-${kind}` : ''}`,
            t(`gamePlay.roulette.board.${kind}`),
            place([`${2 + 2 * i} / span 2`, '5'], ['1', `${2 + 2 * i} / span 2`]),
          ),
        )}
      </div>

      <div className="roulette-game__chips" role="group" aria-label={t('gamePlay.roulette.chip')}>
        {chips.map((value) => (
          <button
            key={value}
            type="button"
            className={`live-roulette__chip-pick roulette-game__chip-pick ${chip === value ? 'is-selected' : ''}`}
            aria-pressed={chip === value}
            data-chip={value}
            onClick={() => setChip(value)}
          >
            {compact(amountToMinor(value))}
          </button>
        ))}
      </div>

      <div className="roulette-game__totals">
        <span className={isOutsideLimits ? 'roulette-game__over' : ''} data-total-stake={minorToAmount(total)}>
          {t('gamePlay.roulette.total', { amount: show(total) })}
        </span>
        <span className="roulette-game__limits" data-limits>
          {t('gamePlay.roulette.limits', { min: show(minMinor), max: show(maxMinor) })}
        </span>
        {isOutsideLimits && (
          <span className="roulette-game__over" data-limit-hint>
            {t('gamePlay.roulette.outsideLimits', { min: show(minMinor), max: show(maxMinor) })}
          </span>
        )}
      </div>

      <div className="live-table__controls roulette-game__controls">
        <button
          type="button"
          className="button button--ghost"
          data-action="undo"
          disabled={isBusy || board.undo.length === 0}
          onClick={undo}
        >
          {t('gamePlay.roulette.undo')}
        </button>
        <button
          type="button"
          className="button button--ghost"
          data-action="clear-bets"
          disabled={isBusy || placements.length === 0}
          onClick={() => change(() => [])}
        >
          {t('gamePlay.roulette.clear')}
        </button>
        <button
          type="button"
          className="button button--ghost"
          data-action="repeat"
          disabled={isBusy || !lastBets || placements === lastBets}
          onClick={() => lastBets && change(() => lastBets)}
        >
          {t('gamePlay.roulette.repeat')}
        </button>
        <button
          type="button"
          className="button button--primary live-table__action"
          data-action="spin"
          disabled={!isHydrated || isBusy || placements.length === 0}
          onClick={() => void spin()}
        >
          {isBusy ? t('gamePlay.roulette.spinning') : t('gamePlay.roulette.spin', { amount: show(total) })}
        </button>
      </div>

      {round && outcome && (
        <div
          className={`game-client__result ${payout > 0n ? 'is-win' : 'is-loss'}`}
          data-result={payout > 0n ? 'win' : 'loss'}
          data-round={round.id}
          data-payout={round.payout.amount}
        >
          <strong>{payout > 0n ? t('gamePlay.win', { amount: formatMoney(round.payout) }) : t('gamePlay.loss')}</strong>
          <p className="roulette-game__summary" data-summary>
            {t('gamePlay.roulette.summary', { stake: formatMoney(round.stake), payout: formatMoney(round.payout) })}
          </p>
          {wins.length > 0 && (
            <ul className="roulette-game__wins" aria-label={t('gamePlay.roulette.winningBets')}>
              {wins.map((result) => (
                <li key={spotKey(result.bet.kind, result.bet)} data-winning-bet={spotKey(result.bet.kind, result.bet)}>
                  {t('gamePlay.roulette.betWon', {
                    bet: spotLabel(t, result.bet),
                    pays: ROULETTE_PAYS[result.bet.kind],
                    amount: show(BigInt(result.payoutMinor)),
                  })}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}

      <details className="roulette-game__paytable">
        <summary>{t('gamePlay.roulette.paytable')}</summary>
        <ul>
          {(['straight', 'split', 'street', 'corner', 'line', 'dozen', 'column'] as const).map((kind) => (
            <li key={kind}>
              {t(`gamePlay.roulette.name.${kind}`)}: {ROULETTE_PAYS[kind]}:1
            </li>
          ))}
          <li>
            {t('gamePlay.roulette.name.evenMoney')}: {ROULETTE_PAYS.red}:1
          </li>
        </ul>
        <p>{t('gamePlay.roulette.zeroRule')}</p>
      </details>
    </section>
  );
}
