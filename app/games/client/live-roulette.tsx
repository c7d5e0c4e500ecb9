/**
 * Live roulette (live; docs/live-games.md): one shared European wheel. Chips go on the board while
 * the countdown runs and are placed together; the wheel spins for everyone when betting closes,
 * and the pocket, the player's winnings and the table's last results follow from the events.
 */
import { useEffect, useRef, useState } from 'react';
import { amountToMinor, formatMoney, minorToAmount, money } from '#common/money';
import { RED_NUMBERS } from '#common/games/roulette';
import { useI18n } from '~/i18n';
import { newRequestId, type GameComponentProps } from './shared';
import { LiveFairness, SoundToggle, useCountdown, useLiveTable, useMyLiveBets, useSound, useLiveError } from './live-table';
import type { LiveResult } from '#common/contract';
import { RouletteWheel } from './roulette-wheel';

const CHIPS = ['0.50', '1.00', '5.00', '25.00'];
const OUTSIDE = ['low', 'even', 'red', 'black', 'odd', 'high'] as const;

type BoardBet = { key: string; kind: string; numbers?: number[]; index?: number; stakeMinor: bigint };

const colorOf = (pocket: number) => (pocket === 0 ? 'green' : RED_NUMBERS.has(pocket) ? 'red' : 'black');

export function LiveRouletteGame({ sysname, mode, api, minBet, onBalance, onError }: GameComponentProps) {
  const { t } = useI18n();
  const { state, isConnected, serverNow } = useLiveTable(sysname);
  const round = state?.round ?? null;
  const { bets, setBets, reload } = useMyLiveBets(api, sysname, mode, round, onBalance);
  const [chip, setChip] = useState(CHIPS.includes(minBet) ? minBet : '1.00');
  const [board, setBoard] = useState<BoardBet[]>([]);
  const [isBusy, setBusy] = useState(false);
  const sound = useSound();
  const liveError = useLiveError(onError);
  const countdown = useCountdown(
    round?.phase === 'betting' ? round.betting_closes_at : round?.phase === 'running' ? round.result_at : round?.next_at,
    serverNow,
  );
  const result = round?.phase === 'result' && round.result && 'pocket' in round.result ? round.result : null;
  const lastPhase = useRef<string | undefined>(undefined);
  const currency = bets[0]?.stake.currency ?? 'EUR';

  useEffect(() => {
    const phase = round ? `${round.id}:${round.phase}` : undefined;
    if (phase === lastPhase.current) return;
    lastPhase.current = phase;
    if (round?.phase === 'running') sound.beep(440);
    if (round?.phase === 'result') sound.beep(620, 250);
  }, [round, sound]);

  function add(kind: string, extra: { numbers?: number[]; index?: number } = {}) {
    if (round?.phase !== 'betting') return;
    const key = `${kind}:${extra.numbers?.join('-') ?? extra.index ?? ''}`;
    const stakeMinor = amountToMinor(chip);
    setBoard((current) => {
      const existing = current.find((item) => item.key === key);
      if (existing)
        return current.map((item) => (item.key === key ? { ...item, stakeMinor: item.stakeMinor + stakeMinor } : item));
      return [...current, { key, kind, ...extra, stakeMinor }];
    });
  }

  const chipsOn = (key: string) => board.find((item) => item.key === key)?.stakeMinor;
  const total = board.reduce((sum, item) => sum + item.stakeMinor, 0n);

  async function placeBets() {
    setBusy(true);
    liveError.report(null);
    try {
      const bet = {
        bets: board.map(({ kind, numbers, index, stakeMinor }) => ({
          kind,
          ...(numbers ? { numbers } : {}),
          ...(index ? { index } : {}),
          stake: minorToAmount(stakeMinor),
        })),
      };
      const answer = await api.call('games.placeLiveBet', {
        sysname,
        mode,
        bet: JSON.stringify(bet),
        request_id: newRequestId(),
      });
      setBets([...bets, answer.bet]);
      setBoard([]);
      onBalance(answer.balance);
      sound.beep(660);
    } catch (caught) {
      liveError.report(caught);
      void reload();
    }
    setBusy(false);
  }

  const staked = bets.reduce((sum, item) => sum + amountToMinor(item.stake.amount), 0n);
  const won = bets.reduce((sum, item) => sum + amountToMinor(item.payout.amount), 0n);
  const isSettled = bets.length > 0 && bets.every((item) => item.status !== 'open');
  const phaseText = !round
    ? t('gamePlay.live.connecting')
    : round.phase === 'betting'
      ? t('gamePlay.live.bettingCloses', { seconds: countdown })
      : round.phase === 'running'
        ? t('gamePlay.liveRoulette.spinning')
        : t('gamePlay.liveRoulette.nextRound', { seconds: countdown });

  const cell = (number: number) => {
    const key = `straight:${number}`;
    const on = chipsOn(key);
    return (
      <button
        key={number}
        type="button"
        className={`roulette-board__cell is-${colorOf(number)} ${result?.pocket === number ? 'is-hit' : ''}`}
        data-bet-number={number}
        disabled={round?.phase !== 'betting'}
        onClick={() => add('straight', { numbers: [number] })}
      >
        {number}
        {on !== undefined && <span className="roulette-board__chip">{minorToAmount(on)}</span>}
      </button>
    );
  };

  return (
    <section
      className="game-client__panel live-table live-roulette"
      data-live-roulette
      data-live-phase={round?.phase ?? 'connecting'}
      data-live-round={round?.id ?? ''}
    >
      <div className="live-table__status">
        <span className={`live-table__dot ${isConnected ? 'is-on' : ''}`} aria-hidden="true" />
        <span data-live-status>{phaseText}</span>
        <span className="live-table__players" data-live-bets-count={round?.bets_count ?? 0}>
          {t('gamePlay.live.bets', { count: round?.bets_count ?? 0 })}
        </span>
        <SoundToggle sound={sound} />
      </div>

      <div className="live-roulette__stage">
        <RouletteWheel pocket={result?.pocket ?? null} isSpinning={round?.phase === 'running'} />
        <div className="live-roulette__outcome" aria-live="polite">
          {round?.phase === 'betting' && (
            <span className="live-roulette__countdown" data-countdown={countdown}>
              {countdown}s
            </span>
          )}
          {result && (
            <span className={`live-roulette__pocket is-${result.color}`} data-live-result={result.pocket}>
              {result.pocket}
            </span>
          )}
        </div>
      </div>

      <div className="roulette-board" role="group" aria-label={t('gamePlay.liveRoulette.board')}>
        <button
          type="button"
          className={`roulette-board__cell roulette-board__zero is-green ${result?.pocket === 0 ? 'is-hit' : ''}`}
          data-bet-number={0}
          disabled={round?.phase !== 'betting'}
          onClick={() => add('straight', { numbers: [0] })}
        >
          0
          {chipsOn('straight:0') !== undefined && (
            <span className="roulette-board__chip">{minorToAmount(chipsOn('straight:0') ?? 0n)}</span>
          )}
        </button>
        <div className="roulette-board__numbers">
          {[3, 2, 1].map((row) => Array.from({ length: 12 }, (_, column) => cell(column * 3 + row)))}
        </div>
        <div className="roulette-board__columns">
          {[3, 2, 1].map((index) => (
            <button
              key={index}
              type="button"
              className="roulette-board__cell roulette-board__outside"
              data-bet-kind={`column-${index}`}
              disabled={round?.phase !== 'betting'}
              onClick={() => add('column', { index })}
            >
              2:1
              {chipsOn(`column:${index}`) !== undefined && (
                <span className="roulette-board__chip">{minorToAmount(chipsOn(`column:${index}`) ?? 0n)}</span>
              )}
            </button>
          ))}
        </div>
        <div className="roulette-board__dozens">
          {[1, 2, 3].map((index) => (
            <button
              key={index}
              type="button"
              className="roulette-board__cell roulette-board__outside"
              data-bet-kind={`dozen-${index}`}
              disabled={round?.phase !== 'betting'}
              onClick={() => add('dozen', { index })}
            >
              {t('gamePlay.liveRoulette.dozen', { from: index * 12 - 11, to: index * 12 })}
              {chipsOn(`dozen:${index}`) !== undefined && (
                <span className="roulette-board__chip">{minorToAmount(chipsOn(`dozen:${index}`) ?? 0n)}</span>
              )}
            </button>
          ))}
        </div>
        <div className="roulette-board__outsides">
          {OUTSIDE.map((kind) => (
            <button
              key={kind}
              type="button"
              className={`roulette-board__cell roulette-board__outside ${kind === 'red' || kind === 'black' ? `is-${kind}` : ''}`}
              data-bet-kind={kind}
              disabled={round?.phase !== 'betting'}
              onClick={() => add(kind)}
            >
              {t(`gamePlay.liveRoulette.${kind}`)}
              {chipsOn(`${kind}:`) !== undefined && (
                <span className="roulette-board__chip">{minorToAmount(chipsOn(`${kind}:`) ?? 0n)}</span>
              )}
            </button>
          ))}
        </div>
      </div>

      {liveError.line}
      <div className="live-table__controls">
        <div className="live-roulette__chips" role="group" aria-label={t('gamePlay.liveRoulette.chip')}>
          {CHIPS.map((value) => (
            <button
              key={value}
              type="button"
              className={`live-roulette__chip-pick ${chip === value ? 'is-selected' : ''}`}
              aria-pressed={chip === value}
              data-chip={value}
              onClick={() => setChip(value)}
            >
              {value}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="button button--ghost"
          data-action="clear-bets"
          disabled={board.length === 0}
          onClick={() => setBoard([])}
        >
          {t('gamePlay.liveRoulette.clear')}
        </button>
        <button
          type="button"
          className="button button--primary live-table__action"
          data-action="place-bet"
          disabled={isBusy || board.length === 0 || round?.phase !== 'betting'}
          onClick={() => void placeBets()}
        >
          {t('gamePlay.liveRoulette.place', { amount: formatMoney(money(total, currency)) })}
        </button>
      </div>

      {bets.length > 0 && (
        <p
          className={`game-client__result ${isSettled ? (won > 0n ? 'is-win' : 'is-loss') : ''}`}
          data-my-bet={isSettled ? (won > 0n ? 'won' : 'lost') : 'open'}
        >
          {!isSettled && t('gamePlay.live.yourBet', { amount: formatMoney(money(staked, currency)) })}
          {isSettled && (won > 0n ? t('gamePlay.win', { amount: formatMoney(money(won, currency)) }) : t('gamePlay.loss'))}
        </p>
      )}

      <ol className="live-table__history" data-history aria-label={t('gamePlay.live.history')}>
        {(state?.history ?? []).map((past) => {
          const pocket = past.result && 'pocket' in past.result ? past.result.pocket : 0;
          return (
            <li
              key={past.id}
              className={`live-table__chip live-roulette__past is-${colorOf(pocket)}`}
              data-history-round={past.id}
            >
              {pocket}
            </li>
          );
        })}
      </ol>

      <LiveFairness
        round={round}
        history={state?.history ?? []}
        describe={(outcome: LiveResult) =>
          'pocket' in outcome ? `${outcome.pocket} ${t(`gamePlay.liveRoulette.${outcome.color}`)}` : ''
        }
      />
    </section>
  );
}
