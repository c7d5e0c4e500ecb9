/**
 * Crash (fast; docs/live-games.md): one shared round for every player. Bets are taken while the
 * countdown runs; then the multiplier climbs (the curve and number follow the server clock and
 * its ticks) until the crash point; a bet cashed out before it wins stake × the multiplier the
 * server saw. An automatic cash-out target may be set with the bet.
 */
import { useEffect, useRef, useState } from 'react';
import { formatMoney } from '#common/money';
import { crashElapsedMsAt, crashMultiplierAt } from '#common/games/crash';
import { useI18n } from '~/i18n';
import { newRequestId, type GameComponentProps } from './shared';
import {
  formatMultiplier,
  LiveFairness,
  SoundToggle,
  useCountdown,
  useLiveTable,
  useMyLiveBets,
  useSound,
  useLiveError,
} from './live-table';
import type { LiveRoundView } from '#common/contract';

const GRAPH_WIDTH = 600;
const GRAPH_HEIGHT = 260;

/** The climb's curve from take-off to `elapsedMs`, scaled to fit, as an SVG path. */
function curvePath(elapsedMs: number): { path: string; top: number } {
  const seconds = Math.max(elapsedMs, 1);
  const top = Math.max(200, crashMultiplierAt(elapsedMs) * 1.15);
  const points: string[] = [];
  for (let i = 0; i <= 60; i++) {
    const t = (seconds * i) / 60;
    const x = (t / seconds) * GRAPH_WIDTH;
    const m = crashMultiplierAt(t);
    const y = GRAPH_HEIGHT - ((m - 100) / (top - 100)) * GRAPH_HEIGHT;
    points.push(`${i === 0 ? 'M' : 'L'}${x.toFixed(1)},${y.toFixed(1)}`);
  }
  return { path: points.join(' '), top };
}

/** The multiplier now, redrawn every frame while the round climbs. */
function useClimb(round: LiveRoundView | null, serverNow: () => number): number {
  const [elapsed, setElapsed] = useState(0);
  const isRunning = round?.phase === 'running';
  const startsAt = round ? Date.parse(round.betting_closes_at) : 0;
  useEffect(() => {
    if (!isRunning) return;
    let frame = 0;
    const draw = () => {
      setElapsed(Math.max(0, serverNow() - startsAt));
      frame = requestAnimationFrame(draw);
    };
    draw();
    return () => cancelAnimationFrame(frame);
  }, [isRunning, startsAt, serverNow]);
  return isRunning ? elapsed : 0;
}

export function CrashGame({ sysname, mode, api, minBet, onBalance, onError }: GameComponentProps) {
  const { t } = useI18n();
  const { state, isConnected, serverNow } = useLiveTable(sysname);
  const round = state?.round ?? null;
  const { bets, setBets, reload } = useMyLiveBets(api, sysname, mode, round, onBalance);
  const [stake, setStake] = useState(Number(minBet) > 1 ? minBet : '1.00');
  const [autoCashOut, setAutoCashOut] = useState('');
  const [isBusy, setBusy] = useState(false);
  const [lastWin, setLastWin] = useState<string | null>(null);
  const sound = useSound();
  const liveError = useLiveError(onError);
  const elapsed = useClimb(round, serverNow);
  const countdown = useCountdown(
    round?.phase === 'betting' ? round.betting_closes_at : round?.phase === 'result' ? round.next_at : null,
    serverNow,
  );
  const myBet = bets[0];
  const crashed = round?.phase === 'result' && round.result && 'crash_point' in round.result ? round.result.crash_point : null;
  // The number follows the server's ticks, and the local clock between them; never past a tick it has not seen crash.
  const live = round?.phase === 'running' ? Math.max(round.multiplier ?? 100, crashMultiplierAt(elapsed)) : null;
  const shown = crashed ?? live ?? 100;
  const { path, top } = curvePath(round?.phase === 'running' ? elapsed : crashed ? crashElapsedMsAt(Math.max(crashed, 100)) : 0);
  const lastPhase = useRef<string | undefined>(undefined);

  useEffect(() => {
    const phase = round ? `${round.id}:${round.phase}` : undefined;
    if (phase === lastPhase.current) return;
    lastPhase.current = phase;
    if (round?.phase === 'betting') setLastWin(null);
    if (round?.phase === 'running') sound.beep(440);
    if (round?.phase === 'result') sound.beep(160, 300);
  }, [round, sound]);

  async function placeBet() {
    setBusy(true);
    liveError.report(null);
    try {
      const bet: Record<string, string> = { stake: stake.trim() };
      if (autoCashOut.trim()) bet.auto_cash_out = autoCashOut.trim();
      const answer = await api.call('games.placeLiveBet', {
        sysname,
        mode,
        bet: JSON.stringify(bet),
        request_id: newRequestId(),
      });
      setBets([answer.bet]);
      onBalance(answer.balance);
      sound.beep(660);
    } catch (caught) {
      liveError.report(caught);
      void reload();
    }
    setBusy(false);
  }

  async function cashOut() {
    if (!myBet) return;
    setBusy(true);
    liveError.report(null);
    try {
      const answer = await api.call('games.cashOut', { bet_id: myBet.id });
      setBets([answer.bet]);
      setLastWin(formatMoney(answer.bet.payout));
      onBalance(answer.balance);
      sound.beep(880);
    } catch (caught) {
      liveError.report(caught);
      void reload();
    }
    setBusy(false);
  }

  const canBet = round?.phase === 'betting' && !myBet;
  const canCashOut = round?.phase === 'running' && myBet?.status === 'open';
  const phaseText = !round
    ? t('gamePlay.live.connecting')
    : round.phase === 'betting'
      ? t('gamePlay.live.bettingCloses', { seconds: countdown })
      : round.phase === 'running'
        ? t('gamePlay.crash.flying')
        : t('gamePlay.crash.crashedAt', { multiplier: formatMultiplier(crashed ?? 100) });

  return (
    <section
      className="game-client__panel live-table crash"
      data-crash
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

      <div className={`crash__stage ${crashed ? 'is-crashed' : ''} ${round?.phase === 'running' ? 'is-running' : ''}`}>
        <svg
          className="crash__graph"
          viewBox={`0 0 ${GRAPH_WIDTH} ${GRAPH_HEIGHT}`}
          preserveAspectRatio="none"
          aria-hidden="true"
        >
          <defs>
            <linearGradient id="crash-fill" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor="var(--primary)" stopOpacity="0.45" />
              <stop offset="100%" stopColor="var(--primary)" stopOpacity="0" />
            </linearGradient>
          </defs>
          {[0.25, 0.5, 0.75].map((line) => (
            <line key={line} x1="0" x2={GRAPH_WIDTH} y1={GRAPH_HEIGHT * line} y2={GRAPH_HEIGHT * line} className="crash__grid" />
          ))}
          {round?.phase !== 'betting' && (
            <>
              <path d={`${path} L${GRAPH_WIDTH},${GRAPH_HEIGHT} L0,${GRAPH_HEIGHT} Z`} fill="url(#crash-fill)" />
              <path d={path} className="crash__curve" />
            </>
          )}
        </svg>
        <div className="crash__multiplier" data-multiplier={shown} aria-live="polite">
          {round?.phase === 'betting' ? (
            <span className="crash__countdown" data-countdown={countdown}>
              {countdown}s
            </span>
          ) : (
            formatMultiplier(shown)
          )}
        </div>
        <span className="crash__scale">{formatMultiplier(Math.round(top))}</span>
      </div>

      {liveError.line}
      <div className="live-table__controls">
        <label className="field">
          <span className="field__label">{t('gamePlay.stake')}</span>
          <input
            className="field__input"
            name="stake"
            inputMode="decimal"
            value={stake}
            onChange={(event) => setStake(event.target.value)}
          />
        </label>
        <label className="field">
          <span className="field__label">{t('gamePlay.crash.autoCashOut')}</span>
          <input
            className="field__input"
            name="auto_cash_out"
            inputMode="decimal"
            placeholder="2.00"
            value={autoCashOut}
            onChange={(event) => setAutoCashOut(event.target.value)}
          />
        </label>
        {canCashOut ? (
          <button
            type="button"
            className="button button--primary live-table__action crash__cash-out"
            data-action="cash-out"
            disabled={isBusy}
            onClick={() => void cashOut()}
          >
            {t('gamePlay.crash.cashOut', { multiplier: formatMultiplier(shown) })}
          </button>
        ) : (
          <button
            type="button"
            className="button button--primary live-table__action"
            data-action="place-bet"
            disabled={isBusy || !canBet}
            onClick={() => void placeBet()}
          >
            {myBet && round?.phase === 'betting' ? t('gamePlay.live.betPlaced') : t('gamePlay.crash.bet')}
          </button>
        )}
      </div>

      {myBet && (
        <p
          className={`game-client__result ${myBet.status === 'won' ? 'is-win' : myBet.status === 'lost' ? 'is-loss' : ''}`}
          data-my-bet={myBet.status}
          data-bet-id={myBet.id}
        >
          {myBet.status === 'open' && t('gamePlay.live.yourBet', { amount: formatMoney(myBet.stake) })}
          {myBet.status === 'won' &&
            t('gamePlay.crash.cashedOut', {
              multiplier: myBet.cash_out ? `${myBet.cash_out}×` : '',
              amount: lastWin ?? formatMoney(myBet.payout),
            })}
          {myBet.status === 'lost' && t('gamePlay.loss')}
        </p>
      )}

      <ol className="live-table__history" data-history aria-label={t('gamePlay.live.history')}>
        {(state?.history ?? []).map((past) => {
          const point = past.result && 'crash_point' in past.result ? past.result.crash_point : 100;
          return (
            <li key={past.id} className={`live-table__chip ${point >= 200 ? 'is-high' : 'is-low'}`} data-history-round={past.id}>
              {formatMultiplier(point)}
            </li>
          );
        })}
      </ol>

      <LiveFairness
        round={round}
        history={state?.history ?? []}
        describe={(result) => ('crash_point' in result ? formatMultiplier(result.crash_point) : '')}
      />
    </section>
  );
}
