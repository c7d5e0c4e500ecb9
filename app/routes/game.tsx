/**
 * /game/{sysname} in the game layout. Opening it with #real as an anonymous visitor opens the
 * registration popup, and closing that popup sends the visitor home (spec §2). The game itself
 * runs in a frame: the game client at /platform/game/{sysname}/{mode}, demo by default and real
 * money with #real for a signed-in player. The gamesItem settings of spec §3 apply: the
 * favourite icon, the full-screen button (none, product, messenger, all) and, unless
 * canAccessSlotWithZeroBalance, a deposit prompt instead of real play on an empty balance.
 * Leaving real play for demo first shows the demo-mode dialog.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { Route } from './+types/game';
import { isAuthenticated } from '#common/api-contract';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { useRootData } from '~/site-data';
import { useDialogs } from '~/dialogs/dialog-context';
import { Icon } from '~/components/icon';
import { useBalances } from '~/balance';
import { browserApi } from '~/api/client';
import { gamePlayPath } from '#common/route-table';
import { PlaySessionBar } from '~/components/play-session-bar';
import { configValue } from '~/site-data';
import { useGameLikes } from '~/games/use-game-likes';
import { isFullScreenButtonVisible, mustDepositBeforeRealPlay } from '~/games/game-page-rules';
import { isInMessenger } from '~/hooks/use-messenger-entry';
import { DEFAULT_LOCALE, localeFromPath } from '#common/locale';
import { cmsList } from '~/content.server';
import { pageNotFound } from '~/api/errors';

/** A readable game name from its sysname: aurora-fortune → Aurora Fortune. */
export function gameDisplayName(sysname: string): string {
  return sysname
    .split(/[-_]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');
}

/** Whether the signed-in player holds an active freespin pack for this game (freespins.get). */
function useHasFreespins(sysname: string, isReal: boolean): boolean {
  const { locale } = useI18n();
  const [hasPacks, setHasPacks] = useState(false);
  useEffect(() => {
    if (!isReal) return;
    let isCurrent = true;
    browserApi(locale)
      .call('freespins.get', {
        status: 'active',
        count: '99',
      })
      .then((page) => {
        if (isCurrent) setHasPacks(page.items.some((pack) => pack.game.sysname === sysname && pack.remaining_count > 0));
      })
      .catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, [sysname, isReal, locale]);
  return hasPacks;
}

/** The page title names the game as the current language does ("Gioca a Roulette Europea", issue 15). */
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'page.game-sysname.title', { game: args.loaderData?.name ?? gameDisplayName(args.params.sysname ?? '') });

/** A game the site does not have is not found (issue 15: /game/nonexistent-game answered 200). */
export async function loader({ params, context, request }: Route.LoaderArgs) {
  const locale = localeFromPath(new URL(request.url).pathname) ?? DEFAULT_LOCALE;
  const [game] = await cmsList<{ name?: string }>(context, 'games', locale, { sysname: params.sysname });
  if (!game) pageNotFound(request);
  return { name: game.attributes.name ?? gameDisplayName(params.sysname) };
}

/**
 * Which client the frame loads: undecided until the browser knows the hash (#real is never sent
 * to the server), so a real-money page does not load the demo client first and abort it (issue 15).
 */
type FrameMode = 'pending' | 'real' | 'demo';

export default function GamePage({ params, loaderData }: Route.ComponentProps) {
  const { t, localePath } = useI18n();
  const root = useRootData();
  const { hash, pathname } = useLocation();
  const navigate = useNavigate();
  const { open } = useDialogs();
  const isAnonymous = !isAuthenticated(root?.account);
  // Full screen takes the whole page block, so its bar (and the exit button) stays reachable.
  const stage = useRef<HTMLDivElement>(null);
  const { balances, refresh } = useBalances();
  // The hash is only known in the browser: the server renders a placeholder, not the demo frame.
  const [frameMode, setFrameMode] = useState<FrameMode>('pending');
  useEffect(() => setFrameMode(hash === '#real' && !isAnonymous ? 'real' : 'demo'), [hash, isAnonymous]);
  const isReal = frameMode === 'real';

  // The game client says when a round moved a balance; the header's balance follows. An external
  // title's client (issue 15) runs at the game aggregator's origin: its frame is trusted by window.
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const frame = document.querySelector<HTMLIFrameElement>('[data-game-frame]')?.contentWindow;
      const isOurFrame = event.origin === window.location.origin || (frame !== undefined && event.source === frame);
      if (isOurFrame && (event.data as { type?: string } | null)?.type === 'game-balance-changed') void refresh();
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [refresh]);

  useEffect(() => {
    if (hash !== '#real' || !isAnonymous) return;
    // A sign-up from here returns to this game in real mode (issue 15), not to home.
    const { closed } = open('auth', { componentProps: { mode: 'sign_up', returnTo: `${pathname}#real` } });
    void closed.then(() => navigate(localePath('/')));
  }, [hash, pathname, isAnonymous, open, navigate, localePath]);

  const name = loaderData.name;
  const canAccessWithZeroBalance = configValue(root?.config, 'games-config.gamesItem.canAccessSlotWithZeroBalance', false);
  const hasFreespins = useHasFreespins(params.sysname, isReal);
  const isDepositFirst = isReal && mustDepositBeforeRealPlay(canAccessWithZeroBalance, balances, hasFreespins);

  function switchToDemo() {
    void open('demoMode', { type: 'confirm' }).closed.then((choice) => {
      if (choice === 'demo') navigate({ hash: '' }, { preventScrollReset: true });
    });
  }

  return (
    <div className="game-page" data-game={params.sysname} ref={stage}>
      <div className="game-page__bar">
        <h1 className="game-page__title">{t('page.game-sysname.title', { game: name })}</h1>
        <GameTools sysname={params.sysname} isSignedIn={!isAnonymous} stage={stage} />
        {isReal ? (
          <button type="button" className="button button--ghost" data-action="play-demo" onClick={switchToDemo}>
            <Icon name="play" size={20} />
            {t('game.playDemo')}
          </button>
        ) : (
          <Link to="#real" className="button button--primary" preventScrollReset data-action="play-real">
            <Icon name="play" size={20} />
            {t('game.playReal')}
          </Link>
        )}
      </div>
      {!isAnonymous && <PlaySessionBar />}
      <div className="game-page__stage">
        {isDepositFirst ? (
          <div className="game-page__deposit" data-deposit-first>
            <h2>{t('game.zeroBalance.title')}</h2>
            <p>{t('game.zeroBalance.text')}</p>
            <div className="confirm__actions">
              <Link to={localePath('/cashier/deposit')} className="button button--primary" data-action="deposit">
                {t('game.zeroBalance.deposit')}
              </Link>
              <Link to={{ hash: '' }} className="button button--ghost" preventScrollReset data-action="demo-instead">
                {t('game.playDemo')}
              </Link>
            </div>
          </div>
        ) : frameMode === 'pending' ? (
          <div className="game-page__frame game-page__frame--loading" data-game-loading aria-busy="true">
            <span className="loader" aria-hidden="true" />
            <span className="visually-hidden">{t('game.loading')}</span>
          </div>
        ) : (
          <iframe
            key={isReal ? 'real' : 'demo'}
            className="game-page__frame"
            title={name}
            src={localePath(gamePlayPath(params.sysname, isReal ? 'play' : 'demo'))}
            data-game-frame={isReal ? 'real' : 'demo'}
            allow="fullscreen"
          />
        )}
      </div>
    </div>
  );
}

/** The favourite icon and the full-screen button, each as the games config says (spec §3, §4). */
function GameTools({
  sysname,
  isSignedIn,
  stage,
}: {
  sysname: string;
  isSignedIn: boolean;
  stage: RefObject<HTMLDivElement | null>;
}) {
  const { t } = useI18n();
  const root = useRootData();
  const canLike = isSignedIn && configValue(root?.config, 'games-config.gamesItem.canVisibleFavoriteIcon', true);
  const fullScreenSetting = configValue(root?.config, 'games-config.gamesItem.visibleFullScreen', 'none');
  const { likes, toggle, busy, load } = useGameLikes(isSignedIn);
  // Whether this tab is the messenger's mini-app is only known in the browser: the server renders
  // the button as a plain browser tab shows it, so the bar keeps its height in the usual case, and a
  // messenger corrects it once hydrated (issue 12: the button arriving late moved the game down).
  const [hasFullScreenButton, setHasFullScreenButton] = useState(() => isFullScreenButtonVisible(fullScreenSetting, false));
  const [isFullScreen, setFullScreen] = useState(false);

  useEffect(() => setHasFullScreenButton(isFullScreenButtonVisible(fullScreenSetting, isInMessenger())), [fullScreenSetting]);

  useEffect(() => {
    if (canLike) void load();
  }, [canLike, load]);

  useEffect(() => {
    const onChange = () => setFullScreen(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  function toggleFullScreen() {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void stage.current?.requestFullscreen?.();
  }

  const isLiked = likes.has(sysname);
  return (
    <div className="game-page__tools">
      {canLike && (
        <button
          type="button"
          className={`icon-button game-page__like${isLiked ? ' is-active' : ''}`}
          aria-pressed={isLiked}
          aria-label={t(isLiked ? 'game.favorite.remove' : 'game.favorite.add')}
          title={t(isLiked ? 'game.favorite.remove' : 'game.favorite.add')}
          disabled={busy === sysname}
          data-action="favorite"
          onClick={() => void toggle(sysname)}
        >
          <Icon name="heart" size={20} />
        </button>
      )}
      {hasFullScreenButton && (
        <button
          type="button"
          className="icon-button"
          aria-pressed={isFullScreen}
          aria-label={t(isFullScreen ? 'game.fullScreen.exit' : 'game.fullScreen.enter')}
          title={t(isFullScreen ? 'game.fullScreen.exit' : 'game.fullScreen.enter')}
          data-action="full-screen"
          onClick={toggleFullScreen}
        >
          <Icon name={isFullScreen ? 'shrink' : 'expand'} size={20} />
        </button>
      )}
    </div>
  );
}
