/**
 * Mines (fast; common/games/mines.ts): a 5×5 field hides the chosen number of mines; each gem
 * opened raises the payout, a mine ends the round with nothing, and the player may cash out after
 * any gem. The round lives on the server (games.start, games.act, games.getOpenRound): a
 * reloaded page shows the open round and plays it on.
 *
 * useStatefulRound is the request side shared with blackjack.tsx: one request at a time, each
 * with a fresh request id; the balance, the round list and refused actions are reported to the
 * game client.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '#common/errors';
import type { OpenRound, StatefulResult } from '#common/contract';
import { formatMoney, minorToAmount, money } from '#common/money';
import { MINES_CELLS, minesMultiplierText, minesPayout } from '#common/games/mines';
import { useI18n } from '~/i18n';
import { newRequestId, type GameComponentProps, type RoundView } from './shared';

/** An answer of games.start / games.act with the table as this game's component reads it. */
export type StatefulAnswer<G> = Omit<OpenRound, 'game' | 'round'> & { round: RoundView; game: G };

/** Refusals of the stateful rules, worded by the game itself (the rest go to the client's error line). */
const ROUND_FIELDS = ['action', 'params', 'round_id', 'request_id'];

/**
 * The round of a stateful game as the server has it: looked up on mount (games.getOpenRound),
 * then moved by `start` and `act`. `isBusy` is true while a request is in flight; a second
 * request meanwhile is ignored. `explain` words a refused action of the round's rules
 * (`gamePlay.{game}.error.{field}`) or returns undefined for the client's own wording.
 */
export function useStatefulRound<G>(
  props: GameComponentProps,
  game: 'mines' | 'blackjack',
  explain?: (field: string, action: string) => string | undefined,
) {
  const { api, sysname, mode } = props;
  const { t } = useI18n();
  const [answer, setAnswer] = useState<StatefulAnswer<G> | null>(null);
  const [isBusy, setBusy] = useState(false);
  const [isReady, setReady] = useState(false);
  const [isResumed, setResumed] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const inFlight = useRef(false);
  const lastBalance = useRef<string | null>(null);
  // The client passes new callbacks on every render; the effects read the latest ones.
  const report = useRef(props);
  report.current = props;

  const loadOpenRound = useCallback(async (): Promise<boolean> => {
    const open = await api.call('games.getOpenRound', { sysname });
    if (open.round && open.game) {
      setAnswer({ round: open.round, game: open.game as G, balance: open.balance });
      return true;
    }
    return false;
  }, [api, sysname]);

  useEffect(() => {
    let isMounted = true;
    loadOpenRound()
      .then((isOpen) => {
        if (isMounted && isOpen) setResumed(true);
      })
      .catch((caught: unknown) => {
        if (isMounted) report.current.onError(caught);
      })
      .finally(() => {
        if (isMounted) setReady(true);
      });
    return () => {
      isMounted = false;
    };
  }, [loadOpenRound]);

  function refuse(caught: unknown, action: string) {
    const data = isApiError(caught) && caught.type === 'InvalidParameterException' ? caught.errorData : undefined;
    const field = typeof data?.field === 'string' ? data.field : undefined;
    if (field === 'sysname' && data?.round_id !== undefined) {
      // Another tab (or a lost answer) opened a round already: show it to finish first.
      setMessage(t(`gamePlay.${game}.error.open`));
      report.current.onError(null);
      void loadOpenRound().catch(() => undefined);
      return;
    }
    if (field && ROUND_FIELDS.includes(field)) {
      setMessage(explain?.(field, action) ?? t(`gamePlay.${game}.error.${field}`));
      report.current.onError(null);
      // The round may have moved elsewhere (another tab, the abandoned-round job): show it as it is.
      void loadOpenRound()
        .then((isOpen) => {
          if (!isOpen) setAnswer((current) => (current?.round.status === 'open' ? null : current));
        })
        .catch(() => undefined);
      return;
    }
    setMessage(null);
    report.current.onError(caught);
  }

  /** One request of the round: `request` sends it with the request id it is given. */
  async function send(
    method: 'games.start' | 'games.act',
    request: (requestId: string) => Promise<StatefulResult>,
    action: string,
  ): Promise<void> {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    setMessage(null);
    setResumed(false);
    report.current.onError(null);
    try {
      const next = await request(newRequestId());
      setAnswer({ round: next.round, game: next.game as G, balance: next.balance });
      const balance = next.balance ? `${next.balance.amount} ${next.balance.currency}` : null;
      if (method === 'games.start' || next.round.status !== 'open' || balance !== lastBalance.current)
        report.current.onBalance(next.balance, next.bonus_balance);
      lastBalance.current = balance;
      // A start takes the next nonce, a settled round joins the recall list: the panel reloads.
      if (method === 'games.start' || next.round.status !== 'open') report.current.onRoundsChanged();
    } catch (caught) {
      refuse(caught, action);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  }

  const start = (bet: Record<string, unknown>) =>
    send(
      'games.start',
      (requestId) => api.call('games.start', { sysname, mode, bet: JSON.stringify(bet), request_id: requestId }),
      'start',
    );
  const act = (action: string, params?: Record<string, unknown>) => {
    if (!answer || answer.round.status !== 'open') return Promise.resolve();
    const roundId = answer.round.id;
    return send(
      'games.act',
      (requestId) =>
        api.call('games.act', {
          round_id: roundId,
          action,
          ...(params ? { params: JSON.stringify(params) } : {}),
          request_id: requestId,
        }),
      action,
    );
  };

  const line = message ? (
    <p className="game-client__error" role="alert" data-game-error data-table-error>
      {message}
    </p>
  ) : null;

  return { answer, isBusy, isReady, isResumed, start, act, line };
}

/** The mines table as games.start / games.act answer it (bigints as strings). */
interface MinesView {
  stakeMinor: string;
  mineCount: number;
  mines: number[] | null;
  opened: number[];
  status: 'playing' | 'lost' | 'cashed-out';
  payoutMinor: string;
  nextPayoutMinor?: string | null;
}

const MINE_COUNTS = Array.from({ length: MINES_CELLS - 1 }, (_, i) => i + 1);

/** The multiplier after `gems` safe cells, to two decimals (0.99 before the first). */
function multiplierText(mineCount: number, gems: number): string {
  try {
    return minesMultiplierText(mineCount, gems);
  } catch {
    return '—';
  }
}

type CellState = 'closed' | 'gem' | 'boom' | 'mine' | 'safe';

function cellState(view: MinesView | undefined, cell: number): CellState {
  if (!view) return 'closed';
  const isMine = view.mines?.includes(cell) ?? false;
  if (view.opened.includes(cell)) return isMine ? 'boom' : 'gem';
  if (view.status === 'playing') return 'closed';
  return isMine ? 'mine' : 'safe';
}

function CellFace({ state }: { state: CellState }) {
  if (state === 'gem' || state === 'safe')
    return (
      <svg viewBox="0 0 40 40" className="mines__icon" aria-hidden="true">
        <path d="M12 6h16l8 10-16 19L4 16z" className="mines__gem" />
        <path d="M4 16h32M12 6l8 29M28 6l-8 29M12 6l-2 10M28 6l2 10" className="mines__gem-facet" />
      </svg>
    );
  if (state === 'mine' || state === 'boom')
    return (
      <svg viewBox="0 0 40 40" className="mines__icon" aria-hidden="true">
        <path d="M20 3v6M20 31v6M3 20h6M31 20h6M8 8l4 4M28 28l4 4M32 8l-4 4M12 28l-4 4" className="mines__spikes" />
        <circle cx="20" cy="20" r="11" className="mines__bomb" />
        <circle cx="16" cy="16" r="3" className="mines__shine" />
      </svg>
    );
  return null;
}

export function MinesGame(props: GameComponentProps) {
  const { minBet, maxBet } = props;
  const { t } = useI18n();
  const [stake, setStake] = useState(Number(minBet) > 1 ? minBet : '1.00');
  const [mineCount, setMineCount] = useState(3);
  const { answer, isBusy, isReady, isResumed, start, act, line } = useStatefulRound<MinesView>(props, 'mines');
  const round = answer?.round;
  const view = answer?.game;
  const isOpen = round?.status === 'open';
  const currency = round?.stake.currency ?? answer?.balance?.currency ?? 'EUR';
  const gems = view ? view.opened.filter((cell) => !(view.mines?.includes(cell) ?? false)).length : 0;
  const shownMines = view?.mineCount ?? mineCount;
  const chosenMines = isOpen && view ? view.mineCount : mineCount;
  const stakeMinor = view ? BigInt(view.stakeMinor) : 0n;
  const cashOutMinor = view && gems > 0 && isOpen ? minesPayout(stakeMinor, view.mineCount, gems) : null;
  const nextMinor = isOpen && view?.nextPayoutMinor ? BigInt(view.nextPayoutMinor) : null;
  const canPlay = isReady && !isBusy;
  // What the gems found are worth now; nothing after a mine.
  const shownMultiplier = view && gems > 0 && view.status !== 'lost' ? multiplierText(view.mineCount, gems) : null;

  const status = !isReady
    ? t('gamePlay.mines.loading')
    : !view
      ? t('gamePlay.mines.idle')
      : view.status === 'playing'
        ? isResumed
          ? t('gamePlay.mines.resumed')
          : t('gamePlay.mines.pick')
        : view.status === 'lost'
          ? t('gamePlay.mines.lost')
          : t('gamePlay.mines.cashedOut', {
              multiplier: multiplierText(view.mineCount, gems),
              amount: formatMoney(round?.payout ?? money(0n, currency)),
            });

  return (
    <section
      className="game-client__panel table-game mines"
      data-mines
      data-ready={isReady ? 'true' : 'false'}
      data-busy={isBusy ? 'true' : 'false'}
      data-round-id={round?.id ?? ''}
      data-round-status={round?.status ?? ''}
      data-mines-status={view?.status ?? ''}
      data-mine-count={view?.mineCount ?? ''}
    >
      <p className="table-game__status" data-table-status aria-live="polite">
        {status}
      </p>

      <div className="mines__board">
        <div
          className={`mines__grid ${view?.status === 'lost' ? 'is-lost' : ''}`}
          role="group"
          aria-label={t('gamePlay.mines.field')}
        >
          {Array.from({ length: MINES_CELLS }, (_, cell) => {
            const state = cellState(view, cell);
            const label = t(`gamePlay.mines.cell.${state}`, { number: cell + 1 });
            return (
              <button
                key={cell}
                type="button"
                className={`mines__cell is-${state}`}
                data-cell={cell}
                data-cell-state={state}
                aria-label={label}
                title={label}
                disabled={!canPlay || !isOpen || state !== 'closed'}
                onClick={() => void act('reveal', { cell })}
              >
                <CellFace state={state} />
              </button>
            );
          })}
        </div>

        <dl className="mines__facts">
          <div>
            <dt>{t('gamePlay.mines.mines')}</dt>
            <dd data-fact="mines">{shownMines}</dd>
          </div>
          <div>
            <dt>{t('gamePlay.mines.gems')}</dt>
            <dd data-fact="gems">{gems}</dd>
          </div>
          <div>
            <dt>{t('gamePlay.mines.multiplier')}</dt>
            <dd data-multiplier={shownMultiplier ?? ''}>{shownMultiplier ? `×${shownMultiplier}` : '—'}</dd>
          </div>
          <div>
            <dt>{t('gamePlay.mines.nextPayout')}</dt>
            <dd data-next-payout={nextMinor === null ? '' : minorToAmount(nextMinor)}>
              {nextMinor === null
                ? '—'
                : `${formatMoney(money(nextMinor, currency))} (×${multiplierText(view?.mineCount ?? mineCount, gems + 1)})`}
            </dd>
          </div>
        </dl>
      </div>

      {line}

      <div className="table-game__controls">
        <label className="field">
          <span className="field__label">{t('gamePlay.stake')}</span>
          <input
            className="field__input"
            name="stake"
            inputMode="decimal"
            value={isOpen && round ? round.stake.amount : stake}
            disabled={isOpen}
            onChange={(event) => setStake(event.target.value)}
          />
          <span className="table-game__limits">{t('gamePlay.mines.limits', { min: minBet, max: maxBet })}</span>
        </label>
        <label className="field">
          <span className="field__label">{t('gamePlay.mines.mines')}</span>
          <select
            className="field__input"
            name="mines"
            value={chosenMines}
            disabled={isOpen}
            onChange={(event) => setMineCount(Number(event.target.value))}
          >
            {MINE_COUNTS.map((count) => (
              <option key={count} value={count}>
                {count}
              </option>
            ))}
          </select>
        </label>
        {isOpen ? (
          <button
            type="button"
            className="button button--primary table-game__action mines__cash-out"
            data-action="cashout"
            disabled={!canPlay || cashOutMinor === null}
            onClick={() => void act('cashout')}
          >
            {cashOutMinor === null
              ? t('gamePlay.mines.cashOutFirst')
              : t('gamePlay.mines.cashOut', { amount: formatMoney(money(cashOutMinor, currency)) })}
          </button>
        ) : (
          <button
            type="button"
            className="button button--primary table-game__action"
            data-action="start"
            disabled={!canPlay}
            onClick={() => void start({ stake: stake.trim(), mines: mineCount })}
          >
            {t('gamePlay.mines.start')}
          </button>
        )}
      </div>

      {round && view && round.status === 'settled' && (
        <p
          className={`game-client__result ${view.status === 'cashed-out' ? 'is-win' : 'is-loss'}`}
          data-result={view.status === 'cashed-out' ? 'win' : 'loss'}
          data-payout={round.payout.amount}
          data-round={round.id}
        >
          {view.status === 'cashed-out' ? t('gamePlay.win', { amount: formatMoney(round.payout) }) : t('gamePlay.loss')}
        </p>
      )}
    </section>
  );
}
