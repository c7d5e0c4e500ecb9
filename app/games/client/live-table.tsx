/**
 * What the live tables' components share (crash.tsx, live-roulette.tsx; docs/live-games.md): the
 * table's events from /platform/live/{sysname}/events (the current state first, so a reconnect
 * is up to date at once), the server clock, the caller's bets and balance from
 * games.getLiveState, the countdown, the sound switch (off by default) and the verification of a
 * past round in the browser: the revealed seed must hash to the commitment, and the engine
 * replayed on the round's stream (common/games) must give the shown result.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '#common/errors';
import type { Money } from '#common/money';
import { crashPoint } from '#common/games/crash';
import { createFairRng, serverSeedHash } from '#common/games/fair';
import { spinLiveRoulette } from '#common/games/live-roulette';
import { useI18n } from '~/i18n';
import type { LiveBetView, LiveResult, LiveRoundView, LiveState } from '#common/contract';
import type { Api, GameMode } from './shared';

/** The table as the events stream tells it, with the server clock's offset from the browser's. */
export function useLiveTable(sysname: string) {
  const [state, setState] = useState<LiveState | null>(null);
  const [isConnected, setConnected] = useState(false);
  const offset = useRef(0);

  useEffect(() => {
    const source = new EventSource(`/platform/live/${encodeURIComponent(sysname)}/events`);
    const onState = (event: MessageEvent<string>) => {
      const next = JSON.parse(event.data) as LiveState;
      offset.current = Date.parse(next.server_time) - Date.now();
      setState(next);
    };
    const onTick = (event: MessageEvent<string>) => {
      const tick = JSON.parse(event.data) as { round_id: string; multiplier: number; server_time: string };
      offset.current = Date.parse(tick.server_time) - Date.now();
      setState((current) =>
        current?.round?.id === tick.round_id ? { ...current, round: { ...current.round, multiplier: tick.multiplier } } : current,
      );
    };
    source.addEventListener('state', onState);
    source.addEventListener('tick', onTick);
    source.onopen = () => setConnected(true);
    source.onerror = () => setConnected(false);
    return () => source.close();
  }, [sysname]);

  const serverNow = useCallback(() => Date.now() + offset.current, []);
  return { state, isConnected, serverNow };
}

/** How soon the bets are asked again when an answer still shows open a bet the table says is settled. */
const SETTLEMENT_RETRY_MS = 300;

/**
 * The state that asks for the caller's bets: the round, its phase, and whether its bets are
 * settled. The phase follows the clock, and the leader's settlement is written a moment after the
 * result is due (later on a busy server), so the table's events stream sends the state again when
 * it is, and the bets are asked for then, once, instead of every few hundred milliseconds.
 */
export function betsKeyOf(round: LiveRoundView | null): string {
  return round ? `${round.id}:${round.phase}:${round.settled ? 'settled' : 'open'}` : '';
}

/**
 * Whether the caller's bets must be asked for again: the table says the round's bets are settled,
 * but the last answer (asked on another process, or answered before the settlement reached it)
 * still shows one of them open.
 */
export function isAwaitingSettlement(round: LiveRoundView | null, betsRoundId: string | null, bets: LiveBetView[]): boolean {
  return round?.phase === 'result' && round.settled && betsRoundId === round.id && bets.some((bet) => bet.status === 'open');
}

/**
 * The caller's bets in the current round and balance, fetched again when the round, its phase or
 * its settlement changes, and while an answer lags behind a settlement the table has announced.
 */
export function useMyLiveBets(
  api: Api,
  sysname: string,
  mode: GameMode,
  round: LiveRoundView | null,
  onBalance: (balance: Money | null) => void,
) {
  const [bets, setBets] = useState<LiveBetView[]>([]);
  const [roundId, setRoundId] = useState<string | null>(null);
  /** Counts the answers (or failures), so a retry is armed again after each one. */
  const [answers, setAnswers] = useState(0);
  const key = betsKeyOf(round);
  // Only the newest answer counts: an older one arriving late would bring back a settled bet as open.
  const latest = useRef(0);

  const reload = useCallback(async () => {
    const asked = ++latest.current;
    try {
      const state = await api.call('games.getLiveState', { sysname, mode });
      if (asked !== latest.current) return;
      setBets(state.my_bets);
      setRoundId(state.round?.id ?? null);
      if (state.balance) onBalance(state.balance);
    } catch {
      // The events stream keeps the table shown; the bets come with the next change or retry.
    }
    if (asked === latest.current) setAnswers((count) => count + 1);
  }, [api, sysname, mode]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (key) void reload();
  }, [key, reload]);

  // Without this a late answer would show the result beside a bet still "open" until the next round.
  const isAwaiting = isAwaitingSettlement(round, roundId, bets);
  useEffect(() => {
    if (!isAwaiting) return;
    const timer = setTimeout(() => void reload(), SETTLEMENT_RETRY_MS);
    return () => clearTimeout(timer);
  }, [isAwaiting, answers, reload]);

  const current = round && roundId === round.id ? bets : [];
  return { bets: current, setBets, reload };
}

/** Whole seconds left until an instant on the server clock, ticking. */
export function useCountdown(until: string | null | undefined, serverNow: () => number): number {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (!until) {
      setLeft(0);
      return;
    }
    const target = Date.parse(until);
    const update = () => setLeft(Math.max(0, Math.ceil((target - serverNow()) / 1000)));
    update();
    const timer = setInterval(update, 200);
    return () => clearInterval(timer);
  }, [until, serverNow]);
  return left;
}

/** A short beep, only when the player turned sound on. */
export function useSound() {
  const [isOn, setOn] = useState(false);
  const context = useRef<AudioContext | null>(null);
  const beep = useCallback(
    (frequency: number, ms = 120) => {
      if (!isOn || typeof window === 'undefined' || !('AudioContext' in window)) return;
      context.current ??= new AudioContext();
      const audio = context.current;
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.value = 0.05;
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start();
      oscillator.stop(audio.currentTime + ms / 1000);
    },
    [isOn],
  );
  return { isOn, setOn, beep };
}

export function SoundToggle({ sound }: { sound: ReturnType<typeof useSound> }) {
  const { t } = useI18n();
  return (
    <button
      type="button"
      className="button button--ghost live-table__sound"
      aria-pressed={sound.isOn}
      data-action="sound"
      onClick={() => sound.setOn(!sound.isOn)}
    >
      {sound.isOn ? t('gamePlay.live.soundOn') : t('gamePlay.live.soundOff')}
    </button>
  );
}

/** The result a round's seeds give, recomputed here (the same pure engines as the server). */
export function recomputeLiveResult(
  round: Pick<LiveRoundView, 'engine' | 'client_seed' | 'nonce'>,
  serverSeed: string,
): LiveResult {
  const rng = createFairRng({ serverSeed, clientSeed: round.client_seed, nonce: round.nonce });
  if (round.engine === 'crash') return { crash_point: crashPoint(rng) };
  const spin = spinLiveRoulette(rng);
  return { pocket: spin.pocket, color: spin.color };
}

export function verifyLiveRound(round: LiveRoundView): boolean {
  if (!round.server_seed || !round.result) return false;
  if (serverSeedHash(round.server_seed) !== round.server_seed_hash.toLowerCase()) return false;
  return JSON.stringify(recomputeLiveResult(round, round.server_seed)) === JSON.stringify(round.result);
}

/** Fields of the live tables' refusals this module words itself (the game client's text is generic for them). */
const LIVE_FIELDS = ['round', 'cash_out', 'bet_id'];

/**
 * The live tables' own error line: a refused bet or cash-out of the live rules is worded here;
 * anything else goes to the game client's error line.
 */
export function useLiveError(onError: (error: unknown) => void) {
  const { t } = useI18n();
  const [text, setText] = useState<string | null>(null);
  const report = useCallback(
    (error: unknown) => {
      const field = isApiError(error) && error.type === 'InvalidParameterException' ? error.errorData?.field : undefined;
      if (typeof field === 'string' && LIVE_FIELDS.includes(field)) {
        setText(t(`gamePlay.error.${field}`));
        onError(null);
      } else {
        setText(null);
        onError(error);
      }
    },
    [onError, t],
  );
  const line = text ? (
    <p className="game-client__error" role="alert" data-game-error data-live-error>
      {text}
    </p>
  ) : null;
  return { report, line };
}

export const formatMultiplier = (hundredths: number) => `${(hundredths / 100).toFixed(2)}×`;

/** The last results with their seeds, each verified in the browser on request. */
export function LiveFairness({
  round,
  history,
  describe,
}: {
  round: LiveRoundView | null;
  history: LiveRoundView[];
  describe: (result: LiveResult) => string;
}) {
  const { t } = useI18n();
  const [checks, setChecks] = useState<Record<string, boolean>>({});
  return (
    <section className="game-client__panel live-table__fair" data-live-fairness>
      <h2 className="live-table__heading">{t('gamePlay.fair.title')}</h2>
      {round && (
        <p className="live-table__hash">
          {t('gamePlay.live.roundHash', { round: round.round_no })} <code data-live-hash>{round.server_seed_hash}</code>
        </p>
      )}
      {history.length === 0 ? (
        <p>{t('gamePlay.fair.noRounds')}</p>
      ) : (
        <ul className="live-table__rounds">
          {history.slice(0, 8).map((past) => (
            <li key={past.id} data-live-past-round={past.id}>
              <span>
                {t('gamePlay.fair.round')} {past.round_no}: <strong>{past.result ? describe(past.result) : '—'}</strong>
              </span>
              <code className="live-table__seed" title={past.server_seed ?? ''}>
                {past.server_seed?.slice(0, 16)}…
              </code>
              {past.id in checks ? (
                <span
                  className={checks[past.id] ? 'is-win' : 'is-loss'}
                  data-live-verified={checks[past.id] ? 'match' : 'mismatch'}
                >
                  {checks[past.id] ? t('gamePlay.fair.match') : t('gamePlay.fair.mismatch')}
                </span>
              ) : (
                <button
                  type="button"
                  className="button button--ghost"
                  data-action="verify-live"
                  onClick={() => setChecks((current) => ({ ...current, [past.id]: verifyLiveRound(past) }))}
                >
                  {t('gamePlay.fair.verify')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
