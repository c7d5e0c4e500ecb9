/**
 * What a slot offers beside the spin button (issue 5): the player's freespin packs for this slot
 * (freespins.get; each free spin is a games.play with freespin_pack_id, paid by the pack), and
 * autoplay within the site's jurisdiction rules (games.getSettings).
 */
import { lazy, Suspense, useCallback, useEffect, useState, type ComponentProps } from 'react';
import { useI18n } from '~/i18n';
import type { Api } from './shared';
import type { FreespinPackView } from '#common/contract';

// The panels' code loads when one is shown (slot-panels.tsx): a demo visitor who never opens
// autoplay never downloads it.
const panels = () => import('./slot-panels');
const LazyFreespinPanel = lazy(async () => ({ default: (await panels()).FreespinPanel }));
const LazyAutoplayForm = lazy(async () => ({ default: (await panels()).AutoplayForm }));

/** The player's active packs for one slot, reloaded after each free spin. */
export function useFreespinPacks(api: Api, sysname: string, isEnabled: boolean) {
  const [packs, setPacks] = useState<FreespinPackView[]>([]);
  const reload = useCallback(async () => {
    if (!isEnabled) return;
    try {
      const page = await api.call('freespins.get', { status: 'active', count: '99' });
      setPacks(page.items.filter((pack) => pack.game.sysname === sysname && pack.remaining_count > 0));
    } catch {
      // Packs are an extra: the slot plays on without them.
      setPacks([]);
    }
  }, [api, sysname, isEnabled]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { packs, reload };
}

/** The player's freespin packs for this slot, once there are any. */
export function FreespinPanel(props: ComponentProps<typeof LazyFreespinPanel>) {
  if (props.packs.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <LazyFreespinPanel {...props} />
    </Suspense>
  );
}

/** Autoplay within the site's rules: the form loads when the player first opens it (or a run is on). */
export function AutoplayPanel(props: ComponentProps<typeof LazyAutoplayForm>) {
  const { t } = useI18n();
  const [wasOpened, setOpened] = useState(false);
  if (!props.rules.is_allowed) return null;
  return (
    <details
      className="slot-autoplay"
      data-autoplay
      open={props.state.isRunning || undefined}
      onToggle={(event) => event.currentTarget.open && setOpened(true)}
    >
      <summary>{t('gamePlay.autoplay.title')}</summary>
      {(wasOpened || props.state.isRunning) && (
        <Suspense
          fallback={
            <p className="card__text" aria-busy="true">
              {t('system.loading')}
            </p>
          }
        >
          <LazyAutoplayForm {...props} />
        </Suspense>
      )}
    </details>
  );
}
