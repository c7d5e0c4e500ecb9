/**
 * The in-house game client at /platform/game/{sysname}/{mode} (spec §2 game-play address helper;
 * mode play is real money, demo is fun money), shown by /game/{sysname} in its frame; an external
 * studio's title is launched at the game aggregator instead (games.launch) and the frame redirected there. The engine's
 * component comes from app/games/client/registry.ts; single-request games play through
 * games.play; the fairness panel shows the seed pair, sets the client seed, rotates, and verifies
 * the last rounds in the browser with common/games (architecture §6).
 */
import { useCallback, useEffect, useMemo, useState, type MouseEvent } from 'react';
import { data, redirect } from 'react-router';
import type { Route } from './+types/game-client';
import type { Money } from '#common/money';
import { formatMoney } from '#common/money';
import { isAuthenticated } from '#common/api-contract';
import { DEFAULT_LOCALE, localeFromPath } from '#common/locale';
import { cmsList } from '~/content.server';
import { browserApi } from '~/api/client';
import { loaderApi } from '~/api/loader-api';
import { useI18n } from '~/i18n';
import { useRootData } from '~/site-data';
import { pageMeta } from '~/seo';
import { gameDisplayName } from './game';
import { SystemPage } from '~/components/system-page';
import { GAME_COMPONENTS, hasGameComponent } from '~/games/client/registry';
import { FairnessPanel } from '~/games/client/fairness-panel';
import { errorText, newRequestId, notifyParent, type PlayResult, type RoundView, type SeedsView } from '~/games/client/shared';
import { isApiError } from '#common/errors';
import { FRAME_MESSAGE, postToPage } from '~/games/frame-messages';
// Every engine's styles, with the route: the engines' code loads per game (registry.ts).
import '~/games/client/slot.css';
import '~/games/client/live-table.css';
import '~/games/client/roulette.css';
import '~/games/client/table-games.css';

interface GameContent {
  sysname: string;
  name?: string;
  engine?: string;
  has_demo?: boolean;
  is_in_house?: boolean;
  game_params?: { min_bet?: string; max_bet?: string };
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  if (params.mode !== 'play' && params.mode !== 'demo') throw data({ type: 'MethodNotFoundException' }, { status: 404 });
  const locale = localeFromPath(new URL(request.url).pathname) ?? DEFAULT_LOCALE;
  // The jurisdiction's rules with the page: autoplay is then in the first paint, not added below
  // the reels once the browser has asked for them (issue 12, the game page's layout shift).
  const [[game], settings] = await Promise.all([
    cmsList<GameContent>(context, 'games', locale, { sysname: params.sysname }),
    loaderApi(request, context)
      .call('games.getSettings')
      .catch(() => null),
  ]);
  // An external studio's title plays at the game aggregator: the frame goes to its launch URL (issue 15).
  if (game && game.attributes.is_in_house === false) {
    const launched = await loaderApi(request, context)
      .call('games.launch', { sysname: params.sysname, mode: params.mode === 'play' ? 'real' : 'demo' })
      .catch(() => undefined);
    if (launched) throw redirect(launched.url);
  }
  // An unknown game, like one this client cannot play, shows the slot error page (spec §2).
  const engine = game?.attributes.engine;
  return {
    sysname: params.sysname,
    // The name in the page's language (issue 15: Italian pages named games in English).
    name: game?.attributes.name ?? gameDisplayName(params.sysname),
    mode: params.mode === 'play' ? ('real' as const) : ('demo' as const),
    engine: hasGameComponent(engine) ? engine : null,
    minBet: game?.attributes.game_params?.min_bet ?? '0.10',
    maxBet: game?.attributes.game_params?.max_bet ?? '100.00',
    settings,
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'page.game-sysname.title', { game: args.loaderData?.name ?? gameDisplayName(args.params.sysname ?? '') });

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
  const { sysname, name, mode, engine, minBet, maxBet, settings } = loaderData;
  const isSignedIn = isAuthenticated(root?.account);
  const accountBalances = isSignedIn ? root?.account.balances : undefined;
  const [balance, setBalance] = useState<Money | null>(
    (mode === 'real' ? accountBalances?.balance_main : accountBalances?.balance_fun) ?? null,
  );
  // Bonus money the player can stake once real money is spent (issue 13): shown while there is some.
  const [bonusBalance, setBonusBalance] = useState<Money | null>(
    mode === 'real' ? (accountBalances?.balance_bonus ?? null) : null,
  );
  const [seeds, setSeeds] = useState<SeedsView | null>(null);
  const [rounds, setRounds] = useState<RoundView[]>([]);
  const [error, setErrorText] = useState<string | null>(null);
  // A refused call's message; one refused for a missing session also ends the page's session, so
  // the frame never plays on signed out inside a signed-in page (issue 15).
  const showError = useCallback(
    (caught: unknown) => {
      if (caught === null) return setErrorText(null);
      if (mode === 'real' && isApiError(caught) && caught.type === 'AuthorizationException')
        postToPage(FRAME_MESSAGE.sessionEnded);
      setErrorText(errorText(t, caught));
    },
    [mode, t],
  );

  const loadRounds = useCallback(async () => {
    try {
      setRounds(await api.call('games.getRounds', { sysname, count: 10 }));
    } catch (caught) {
      showError(caught);
    }
  }, [api, sysname, showError]);

  const loadSeeds = useCallback(async () => {
    try {
      setSeeds(await api.call('games.getSeeds'));
    } catch (caught) {
      showError(caught);
    }
  }, [api, showError]);

  useEffect(() => {
    void loadSeeds();
    void loadRounds();
  }, [loadSeeds, loadRounds]);

  // Real play loaded without a session (it ended while the page stayed open): the page signs out.
  useEffect(() => {
    if (mode === 'real' && !isSignedIn) postToPage(FRAME_MESSAGE.sessionEnded);
  }, [mode, isSignedIn]);

  async function play(bet: Record<string, unknown>, options: { freespinPackId?: string } = {}): Promise<PlayResult | undefined> {
    showError(null);
    try {
      const freespin = options.freespinPackId ? { freespin_pack_id: options.freespinPackId } : {};
      const result = await api.call('games.play', {
        sysname,
        mode,
        bet: JSON.stringify(bet),
        request_id: newRequestId(),
        ...freespin,
      });
      onBalance(result.balance, result.bonus_balance);
      onRoundsChanged();
      return result;
    } catch (caught) {
      showError(caught);
      return undefined;
    }
  }

  function onBalance(next: Money | null, bonus?: Money) {
    if (next) setBalance(next);
    if (bonus) setBonusBalance(bonus);
    notifyParent();
  }

  function onRoundsChanged() {
    void loadSeeds();
    void loadRounds();
  }

  const GameComponent = engine === null ? undefined : GAME_COMPONENTS[engine];
  if (engine === null || !GameComponent) {
    return (
      <div className="game-client" onClickCapture={openLinkInTop}>
        <SystemPage type="slotError" />
      </div>
    );
  }

  const modeLabel = mode === 'real' ? t('gamePlay.mode.real') : t('gamePlay.mode.demo');
  return (
    <div className="game-client" data-game-client={sysname} data-engine={engine} data-mode={mode}>
      <div className="game-client__bar">
        <h1 className="game-client__title">{name}</h1>
        <span className="game-client__mode" data-mode-label>
          {modeLabel}
        </span>
        {balance && (
          <span className="game-client__balance" data-game-balance={balance.amount}>
            {t(mode === 'real' ? 'gamePlay.balance.real' : 'gamePlay.balance.demo')}: {formatMoney(balance)}
          </span>
        )}
        {bonusBalance && Number(bonusBalance.amount) > 0 && (
          <span className="game-client__balance game-client__balance--bonus" data-game-bonus-balance={bonusBalance.amount}>
            {t('gamePlay.balance.bonus')}: {formatMoney(bonusBalance)}
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
      <GameComponent
        sysname={sysname}
        mode={mode}
        engine={engine}
        minBet={minBet}
        maxBet={maxBet}
        settings={settings}
        api={api}
        play={play}
        onBalance={onBalance}
        onRoundsChanged={onRoundsChanged}
        onError={showError}
      />
      <FairnessPanel seeds={seeds} rounds={rounds} api={api} onSeeds={setSeeds} onError={showError} reloadRounds={loadRounds} />
    </div>
  );
}
