/**
 * /game/{sysname} in the game layout. Opening it with #real as an anonymous visitor opens the
 * registration popup, and closing that popup sends the visitor home (spec §2). The game itself
 * runs in a frame: the game client at /platform/game/{sysname}/{mode}, demo by default and real
 * money with #real for a signed-in player.
 */
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { Route } from './+types/game';
import { isAuthenticated } from '#common/api-contract';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { useRootData } from '~/site-data';
import { useDialogs } from '~/dialogs/dialog-provider';
import { Icon } from '~/components/icon';
import { useBalances } from '~/balance';
import { gamePlayPath } from '#common/route-table';
import { PlaySessionBar } from '~/components/play-session-bar';

/** A readable game name from its sysname: aurora-fortune → Aurora Fortune. */
export function gameDisplayName(sysname: string): string {
  return sysname
    .split(/[-_]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.game-sysname.title', { game: args.params.sysname ?? '' });

export default function GamePage({ params }: Route.ComponentProps) {
  const { t, localePath } = useI18n();
  const root = useRootData();
  const { hash } = useLocation();
  const navigate = useNavigate();
  const { open } = useDialogs();
  const isAnonymous = !isAuthenticated(root?.account);
  const { refresh } = useBalances();
  // The hash is only known in the browser: the server renders the demo frame.
  const [isReal, setReal] = useState(false);
  useEffect(() => setReal(hash === '#real' && !isAnonymous), [hash, isAnonymous]);

  // The game client says when a round moved a balance; the header's balance follows.
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin === window.location.origin && (event.data as { type?: string } | null)?.type === 'game-balance-changed') void refresh();
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [refresh]);

  useEffect(() => {
    if (hash !== '#real' || !isAnonymous) return;
    const { closed } = open('auth', { componentProps: { mode: 'sign_up' } });
    void closed.then(() => navigate(localePath('/')));
  }, [hash, isAnonymous, open, navigate, localePath]);

  const name = gameDisplayName(params.sysname);
  return (
    <div className="game-page" data-game={params.sysname}>
      <div className="game-page__bar">
        <h1 className="game-page__title">{t('page.game-sysname.title', { game: name })}</h1>
        {isReal ? (
          <Link to={{ hash: '' }} className="button button--ghost" preventScrollReset data-action="play-demo">
            <Icon name="play" size={20} />
            {t('game.playDemo')}
          </Link>
        ) : (
          <Link to="#real" className="button button--primary" preventScrollReset data-action="play-real">
            <Icon name="play" size={20} />
            {t('game.playReal')}
          </Link>
        )}
      </div>
      {!isAnonymous && <PlaySessionBar />}
      <div className="game-page__stage">
        <iframe
          key={isReal ? 'real' : 'demo'}
          className="game-page__frame"
          title={name}
          src={localePath(gamePlayPath(params.sysname, isReal ? 'play' : 'demo'))}
          data-game-frame={isReal ? 'real' : 'demo'}
        />
      </div>
    </div>
  );
}
