/**
 * The in-house game client at /platform/game/{sysname}/{mode} (spec §2 game-play address helper;
 * mode play is real money, demo is fun money), shown by /game/{sysname} in its frame. Dice and the
 * three slots play through games.play; the fairness panel shows the seed pair, sets the client
 * seed, rotates, and verifies the last rounds in the browser with common/games (architecture §6).
 */
import { useCallback, useEffect, useMemo, useState, type MouseEvent } from 'react';
import { data } from 'react-router';
import type { Route } from './+types/game-client';
import type { Money } from '#common/money';
import { formatMoney } from '#common/money';
import { isApiError } from '#common/errors';
import { isAuthenticated } from '#common/api-contract';
import { DEFAULT_LOCALE, localeFromPath } from '#common/locale';
import { DICE_MAX_WINNING_ROLLS, DICE_MIN_WINNING_ROLLS, DICE_OUTCOMES, DICE_RETURN_NUMERATOR } from '#common/games/dice';
import { cmsList } from '~/content.server';
import { browserApi } from '~/api/client';
import { useI18n } from '~/i18n';
import { useRootData } from '~/site-data';
import { pageMeta } from '~/seo';
import { gameDisplayName } from './game';
import { SystemPage } from '~/components/system-page';
import { isClientEngine, verifyRoundInBrowser, type ClientEngine } from '~/games/verify-round';

interface GameContent {
  sysname: string;
  engine?: string;
  has_demo?: boolean;
  game_params?: { min_bet?: string; max_bet?: string };
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  if (params.mode !== 'play' && params.mode !== 'demo') throw data({ type: 'MethodNotFoundException' }, { status: 404 });
  const locale = localeFromPath(new URL(request.url).pathname) ?? DEFAULT_LOCALE;
  const [game] = await cmsList<GameContent>(context, 'games', locale, { sysname: params.sysname });
  // An unknown game, like one this client cannot play, shows the slot error page (spec §2).
  const engine = game?.attributes.engine;
  return {
    sysname: params.sysname,
    mode: params.mode === 'play' ? ('real' as const) : ('demo' as const),
    engine: isClientEngine(engine) ? engine : null,
    minBet: game?.attributes.game_params?.min_bet ?? '0.10',
    maxBet: game?.attributes.game_params?.max_bet ?? '100.00',
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.game-sysname.title', { game: args.params.sysname ?? '' });

interface RoundView {
  id: string;
  engine: string;
  mode: 'real' | 'demo';
  stake: Money;
  payout: Money;
  bet: unknown;
  outcome: unknown;
  server_seed_hash: string;
  client_seed: string;
  nonce: number;
  created_at: string;
}
interface SeedsView {
  server_seed_hash: string;
  client_seed: string;
  nonce: number;
}
interface PlayResult {
  round: RoundView;
  is_replay: boolean;
  balance: Money | null;
}

type Translate = (key: string, params?: Record<string, string | number>) => string;

/** A clear message for an API error: the wrong field, the error type, or a generic text. */
function errorText(t: Translate, error: unknown): string {
  if (!isApiError(error)) return t('gamePlay.error.network');
  const field = typeof error.errorData?.field === 'string' ? error.errorData.field : undefined;
  if (error.type === 'InvalidParameterException' && field && ['stake', 'bet', 'client_seed', 'mode', 'sysname'].includes(field)) return t(`gamePlay.error.${field}`);
  if (error.type === 'UserNeedDepositException') return t('gamePlay.error.deposit');
  if (error.type === 'AuthorizationException') return t('gamePlay.error.signIn');
  if (error.type === 'AccessDeniedException') return t('gamePlay.error.excluded');
  const key = `error.${error.type}`;
  const text = t(key);
  return text === key ? t('error.UnknownErrorException') : text;
}

function newRequestId(): string {
  const random = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  return `r-${random}`.slice(0, 64);
}

/** Tells the framing game page that a balance moved, so its header can refresh. */
function notifyParent(): void {
  if (typeof window !== 'undefined' && window.parent !== window) window.parent.postMessage({ type: 'game-balance-changed' }, window.location.origin);
}

/** In the game page's frame, the slot error page's button leaves the frame for the game hall. */
function openLinkInTop(event: MouseEvent<HTMLElement>): void {
  const link = (event.target as HTMLElement).closest('a');
  if (!link || window.top === window.self || !window.top) return;
  event.preventDefault();
  window.top.location.href = link.href;
}

export default function GameClient({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useI18n();
  const root = useRootData();
  const api = useMemo(() => browserApi(locale), [locale]);
  const { sysname, mode, engine, minBet, maxBet } = loaderData;
  const isSignedIn = isAuthenticated(root?.account);
  const accountBalances = isSignedIn ? root?.account.balances : undefined;
  const [balance, setBalance] = useState<Money | null>((mode === 'real' ? accountBalances?.balance_main : accountBalances?.balance_fun) ?? null);
  const [seeds, setSeeds] = useState<SeedsView | null>(null);
  const [rounds, setRounds] = useState<RoundView[]>([]);
  const [error, setError] = useState<string | null>(null);

  const loadRounds = useCallback(async () => {
    try {
      setRounds(await api.call<RoundView[]>('GET', 'games.getRounds', { sysname, count: 10 }));
    } catch (caught) {
      setError(errorText(t, caught));
    }
  }, [api, sysname, t]);

  const loadSeeds = useCallback(async () => {
    try {
      setSeeds(await api.call<SeedsView>('GET', 'games.getSeeds'));
    } catch (caught) {
      setError(errorText(t, caught));
    }
  }, [api, t]);

  useEffect(() => {
    void loadSeeds();
    void loadRounds();
  }, [loadSeeds, loadRounds]);

  async function play(bet: Record<string, unknown>): Promise<PlayResult | undefined> {
    setError(null);
    try {
      const result = await api.call<PlayResult>('POST', 'games.play', { sysname, mode, bet: JSON.stringify(bet), request_id: newRequestId() });
      if (result.balance) setBalance(result.balance);
      notifyParent();
      void loadSeeds();
      void loadRounds();
      return result;
    } catch (caught) {
      setError(errorText(t, caught));
      return undefined;
    }
  }

  if (engine !== 'dice' && !engine?.startsWith('slot-')) {
    return (
      <div className="game-client" onClickCapture={openLinkInTop}>
        <SystemPage type="slotError" />
      </div>
    );
  }

  const modeLabel = mode === 'real' ? t('gamePlay.mode.real') : t('gamePlay.mode.demo');
  return (
    <div className="game-client" data-game-client={sysname} data-engine={engine ?? ''} data-mode={mode}>
      <div className="game-client__bar">
        <h1 className="game-client__title">{gameDisplayName(sysname)}</h1>
        <span className="game-client__mode" data-mode-label>
          {modeLabel}
        </span>
        {balance && (
          <span className="game-client__balance" data-game-balance={balance.amount}>
            {t(mode === 'real' ? 'gamePlay.balance.real' : 'gamePlay.balance.demo')}: {formatMoney(balance)}
          </span>
        )}
      </div>
      {mode === 'real' && !isSignedIn && (
        <p className="game-client__notice" role="alert" data-game-error>
          {t('gamePlay.error.signIn')}
        </p>
      )}
      {error && (
        <p className="game-client__error" role="alert" data-game-error>
          {error}
        </p>
      )}
      {engine === 'dice' && <DiceGame play={play} minBet={minBet} />}
      {engine !== null && engine.startsWith('slot-') && <SlotGame engine={engine} play={play} minBet={minBet} maxBet={maxBet} />}
      {engine !== null && (
        <FairnessPanel
          seeds={seeds}
          rounds={rounds}
          api={api}
          onSeeds={setSeeds}
          onError={(caught) => setError(caught === null ? null : errorText(t, caught))}
          reloadRounds={loadRounds}
        />
      )}
    </div>
  );
}

type Play = (bet: Record<string, unknown>) => Promise<PlayResult | undefined>;

function DiceGame({ play, minBet }: { play: Play; minBet: string }) {
  const { t } = useI18n();
  const [stake, setStake] = useState(Number(minBet) > 1 ? minBet : '1.00');
  const [direction, setDirection] = useState<'under' | 'over'>('under');
  const [target, setTarget] = useState(50);
  const [isBusy, setBusy] = useState(false);
  const [result, setResult] = useState<PlayResult | null>(null);
  const hundredths = Math.round(target * 100);
  const winning = direction === 'under' ? hundredths : DICE_OUTCOMES - 1 - hundredths;
  const isValidTarget = winning >= DICE_MIN_WINNING_ROLLS && winning <= DICE_MAX_WINNING_ROLLS;
  const chance = (winning / 100).toFixed(2);
  const multiplier = isValidTarget ? (DICE_RETURN_NUMERATOR / winning).toFixed(4) : '—';
  const outcome = result?.round.outcome as { rollHundredths: number; isWin: boolean } | undefined;

  async function roll() {
    setBusy(true);
    const answer = await play({ stake: stake.trim(), direction, target: target.toFixed(2) });
    if (answer) setResult(answer);
    setBusy(false);
  }

  return (
    <section className="game-client__panel dice" data-dice>
      <label className="field">
        <span className="field__label">{t('gamePlay.stake')}</span>
        <input className="field__input" name="stake" inputMode="decimal" value={stake} onChange={(event) => setStake(event.target.value)} />
      </label>
      <div className="dice__direction" role="group" aria-label={t('gamePlay.dice.direction')}>
        {(['under', 'over'] as const).map((side) => (
          <button
            key={side}
            type="button"
            className={`button ${direction === side ? 'button--primary' : 'button--ghost'}`}
            aria-pressed={direction === side}
            data-direction={side}
            onClick={() => setDirection(side)}
          >
            {t(`gamePlay.dice.${side}`)}
          </button>
        ))}
      </div>
      <label className="field">
        <span className="field__label">{t('gamePlay.dice.target')}</span>
        <input type="range" name="target-range" min={1} max={98.99} step={0.01} value={target} onChange={(event) => setTarget(Number(event.target.value))} />
        <input
          className="field__input"
          type="number"
          name="target"
          min={1}
          max={98.99}
          step={0.01}
          value={target}
          onChange={(event) => setTarget(Math.min(99.99, Math.max(0, Number(event.target.value) || 0)))}
        />
      </label>
      <p className="dice__odds">
        {t('gamePlay.dice.chance', { chance })} · {t('gamePlay.dice.multiplier', { multiplier })}
      </p>
      <button type="button" className="button button--primary" data-action="roll" disabled={isBusy || !isValidTarget} onClick={() => void roll()}>
        {t('gamePlay.dice.roll')}
      </button>
      {result && outcome && (
        <div className={`game-client__result ${outcome.isWin ? 'is-win' : 'is-loss'}`} data-result={outcome.isWin ? 'win' : 'loss'} data-round={result.round.id}>
          <span data-roll>{t('gamePlay.dice.rolled', { roll: (outcome.rollHundredths / 100).toFixed(2) })}</span>{' '}
          <strong>{outcome.isWin ? t('gamePlay.win', { amount: formatMoney(result.round.payout) }) : t('gamePlay.loss')}</strong>
        </div>
      )}
    </section>
  );
}

const SLOT_STAKES = ['0.10', '0.20', '0.50', '1.00', '2.00', '5.00', '10.00'];

const SYMBOL_LABELS: Record<string, string> = {
  WILD: 'W',
  STAR: '★',
  SEVEN: '7',
  BAR: 'BAR',
  BELL: 'B',
  DIAMOND: '◆',
  EMERALD: '▲',
  RUBY: '●',
  SAPPHIRE: '■',
  AMETHYST: '✦',
  TOPAZ: '⬟',
  ONYX: '○',
};

function Tile({ symbol, isWin }: { symbol: string; isWin?: boolean }) {
  return (
    <span className={`slot-tile slot-tile--${symbol.toLowerCase()}${isWin ? ' is-win' : ''}`} data-symbol={symbol} title={symbol}>
      {SYMBOL_LABELS[symbol] ?? symbol.slice(0, 3)}
    </span>
  );
}

interface LineSpin {
  window: string[][];
  lineWins: { line: number; symbol: string; count: number; pays: number }[];
  scatterCount: number;
  winLineBets: number;
  freeSpinsAwarded: number;
}
interface CascadeStepView {
  grid: string[][];
  multiplier: number;
  clusters: { symbol: string; cells: number[]; pays: number }[];
}

function SlotGame({ engine, play, minBet, maxBet }: { engine: ClientEngine; play: Play; minBet: string; maxBet: string }) {
  const { t } = useI18n();
  const stakes = SLOT_STAKES.filter((stake) => Number(stake) >= Number(minBet) && Number(stake) <= Number(maxBet));
  const [stake, setStake] = useState(stakes.includes('1.00') ? '1.00' : (stakes[0] ?? minBet));
  const [isBusy, setBusy] = useState(false);
  const [result, setResult] = useState<PlayResult | null>(null);

  async function spin() {
    setBusy(true);
    const answer = await play({ stake });
    if (answer) setResult(answer);
    setBusy(false);
  }

  const isCascade = engine === 'slot-cascade';
  const spins = !isCascade ? ((result?.round.outcome as { spins?: LineSpin[] } | undefined)?.spins ?? []) : [];
  const steps = isCascade ? ((result?.round.outcome as { steps?: CascadeStepView[] } | undefined)?.steps ?? []) : [];
  const paid = spins[0];
  const firstStep = steps[0];
  const freeSpins = spins.slice(1);
  const winningCells = new Set(firstStep?.clusters.flatMap((cluster) => cluster.cells) ?? []);
  const isWin = result ? Number(result.round.payout.amount) > 0 : false;

  return (
    <section className="game-client__panel slot" data-slot={engine}>
      <div className="slot__window" data-reels>
        {paid &&
          paid.window.map((reel, index) => (
            <div className="slot__reel" key={index}>
              {reel.map((symbol, row) => (
                <Tile key={row} symbol={symbol} />
              ))}
            </div>
          ))}
        {firstStep &&
          firstStep.grid.map((column, index) => (
            <div className="slot__reel" key={index}>
              {column.map((symbol, row) => (
                <Tile key={row} symbol={symbol} isWin={winningCells.has(index * column.length + row)} />
              ))}
            </div>
          ))}
        {!result && <p className="slot__idle">{t('gamePlay.slot.idle')}</p>}
      </div>
      <div className="slot__controls">
        <label className="field">
          <span className="field__label">{t('gamePlay.stake')}</span>
          <select className="field__input" name="stake" value={stake} onChange={(event) => setStake(event.target.value)}>
            {stakes.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button button--primary" data-action="spin" disabled={isBusy} onClick={() => void spin()}>
          {t('gamePlay.slot.spin')}
        </button>
      </div>
      {result && (
        <div className={`game-client__result ${isWin ? 'is-win' : 'is-loss'}`} data-result={isWin ? 'win' : 'loss'} data-round={result.round.id}>
          <strong>{isWin ? t('gamePlay.win', { amount: formatMoney(result.round.payout) }) : t('gamePlay.loss')}</strong>
          {paid && paid.lineWins.length > 0 && (
            <ul className="slot__wins">
              {paid.lineWins.map((win) => (
                <li key={win.line}>{t('gamePlay.slot.lineWin', { line: win.line + 1, symbol: win.symbol, count: win.count, pays: win.pays })}</li>
              ))}
            </ul>
          )}
          {paid && paid.freeSpinsAwarded > 0 && <p data-free-spins={freeSpins.length}>{t('gamePlay.slot.freeSpins', { count: freeSpins.length, wins: freeSpins.reduce((sum, item) => sum + item.winLineBets, 0) })}</p>}
          {steps.length > 1 && <p data-cascades={steps.length - 1}>{t('gamePlay.slot.cascades', { count: steps.length - 1, multiplier: steps.at(-1)?.multiplier ?? 1 })}</p>}
        </div>
      )}
    </section>
  );
}

type Api = ReturnType<typeof browserApi>;

function FairnessPanel({
  seeds,
  rounds,
  api,
  onSeeds,
  onError,
  reloadRounds,
}: {
  seeds: SeedsView | null;
  rounds: RoundView[];
  api: Api;
  onSeeds: (seeds: SeedsView) => void;
  onError: (error: unknown) => void;
  reloadRounds: () => Promise<void>;
}) {
  const { t } = useI18n();
  const [clientSeed, setClientSeed] = useState('');
  const [previous, setPrevious] = useState<{ server_seed: string; server_seed_hash: string } | null>(null);
  const [checks, setChecks] = useState<Record<string, 'match' | 'mismatch' | 'unrevealed'>>({});
  const [isBusy, setBusy] = useState(false);

  useEffect(() => {
    if (seeds) setClientSeed(seeds.client_seed);
  }, [seeds?.client_seed]); // eslint-disable-line react-hooks/exhaustive-deps

  async function saveClientSeed() {
    setBusy(true);
    onError(null);
    try {
      onSeeds(await api.call<SeedsView>('POST', 'games.setClientSeed', { client_seed: clientSeed }));
    } catch (caught) {
      onError(caught);
    }
    setBusy(false);
  }

  async function rotate() {
    setBusy(true);
    onError(null);
    try {
      const answer = await api.call<SeedsView & { previous: { server_seed: string; server_seed_hash: string } }>('POST', 'games.rotateSeeds');
      setPrevious(answer.previous);
      onSeeds({ server_seed_hash: answer.server_seed_hash, client_seed: answer.client_seed, nonce: answer.nonce });
      await reloadRounds();
    } catch (caught) {
      onError(caught);
    }
    setBusy(false);
  }

  async function verify(round: RoundView) {
    onError(null);
    try {
      const answer = await api.call<{ server_seed: string | null; is_revealed: boolean }>('GET', 'games.verifyRound', { round_id: round.id });
      const state = !answer.is_revealed || !answer.server_seed ? 'unrevealed' : verifyRoundInBrowser(round, answer.server_seed).isMatch ? 'match' : 'mismatch';
      setChecks((current) => ({ ...current, [round.id]: state }));
    } catch (caught) {
      onError(caught);
    }
  }

  return (
    <section className="game-client__panel fairness" data-fairness>
      <h2>{t('gamePlay.fair.title')}</h2>
      <dl className="fairness__seeds">
        <dt>{t('gamePlay.fair.serverSeedHash')}</dt>
        <dd data-server-seed-hash>{seeds?.server_seed_hash ?? '…'}</dd>
        <dt>{t('gamePlay.fair.nonce')}</dt>
        <dd data-nonce>{seeds?.nonce ?? '…'}</dd>
      </dl>
      <label className="field">
        <span className="field__label">{t('gamePlay.fair.clientSeed')}</span>
        <input className="field__input" name="client_seed" value={clientSeed} maxLength={64} onChange={(event) => setClientSeed(event.target.value)} />
      </label>
      <div className="fairness__actions">
        <button type="button" className="button button--ghost" data-action="set-client-seed" disabled={isBusy || !seeds} onClick={() => void saveClientSeed()}>
          {t('gamePlay.fair.saveClientSeed')}
        </button>
        <button type="button" className="button button--ghost" data-action="rotate" disabled={isBusy || !seeds} onClick={() => void rotate()}>
          {t('gamePlay.fair.rotate')}
        </button>
      </div>
      {previous && (
        <p className="fairness__previous" data-previous-seed={previous.server_seed}>
          {t('gamePlay.fair.revealed', { seed: previous.server_seed, hash: previous.server_seed_hash })}
        </p>
      )}
      <h3>{t('gamePlay.fair.lastRounds')}</h3>
      {rounds.length === 0 ? (
        <p>{t('gamePlay.fair.noRounds')}</p>
      ) : (
        <table className="fairness__rounds">
          <thead>
            <tr>
              <th>{t('gamePlay.fair.round')}</th>
              <th>{t('gamePlay.stake')}</th>
              <th>{t('gamePlay.payout')}</th>
              <th>{t('gamePlay.fair.nonce')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rounds.map((round) => (
              <tr key={round.id} data-round-row={round.id}>
                <td>#{round.id}</td>
                <td>{formatMoney(round.stake)}</td>
                <td>{formatMoney(round.payout)}</td>
                <td>{round.nonce}</td>
                <td>
                  <button type="button" className="button button--ghost" data-action="verify" onClick={() => void verify(round)}>
                    {t('gamePlay.fair.verify')}
                  </button>{' '}
                  {checks[round.id] && (
                    <span className={`fairness__check is-${checks[round.id]}`} data-verified={checks[round.id]}>
                      {t(`gamePlay.fair.${checks[round.id]}`)}
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
