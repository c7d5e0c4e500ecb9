/**
 * The header's main navigation (issue 15: at 1280–1440 px a signed-in header cut "Tournaments"
 * and hid "Loyalty", in a strip that scrolled without a hint). The items that fit stay in the
 * strip; the rest move, in order, into a "More" menu at its end. What fits is measured from a
 * hidden copy of every item, so it follows the language, the fonts and the header's other parts.
 * The menu is a disclosure: Enter or Space opens it, the arrow keys move between its links,
 * Escape closes it and gives the focus back to its button, and leaving it closes it.
 */
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import { Link, useLocation } from 'react-router';
import { useI18n } from '~/i18n';
import { Icon } from './icon';
import { iconForPath } from './route-icon';
import { fittingCount, type NavItem } from './nav-active';

// The server has no layout: the effect there is a no-op either way.
const useIsomorphicLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

export function SiteNav({ items, activePath }: { items: readonly NavItem[]; activePath: string | undefined }) {
  const { t, localePath } = useI18n();
  const navRef = useRef<HTMLElement>(null);
  const measureRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  const menuId = useId();
  const [visibleCount, setVisibleCount] = useState(items.length);
  const [isOpen, setOpen] = useState(false);
  const { pathname, search } = useLocation();

  const measure = useCallback(() => {
    const nav = navRef.current;
    const copies = measureRef.current;
    if (!nav || !copies) return;
    const itemWidths = [...copies.querySelectorAll<HTMLElement>('[data-measure-item]')].map(
      (node) => node.getBoundingClientRect().width,
    );
    const moreWidth = copies.querySelector<HTMLElement>('[data-measure-more]')?.getBoundingClientRect().width ?? 0;
    const gap = parseFloat(getComputedStyle(nav).columnGap) || 0;
    // A hidden nav (the phone's curtain holds the menu) measures 0: nothing to decide then.
    if (nav.clientWidth === 0) return;
    setVisibleCount(fittingCount(itemWidths, gap, nav.clientWidth, moreWidth));
  }, []);

  useIsomorphicLayoutEffect(() => {
    measure();
    const observer = new ResizeObserver(() => measure());
    if (navRef.current) observer.observe(navRef.current);
    if (measureRef.current) observer.observe(measureRef.current);
    // Web fonts change the widths once they load.
    void document.fonts?.ready.then(measure);
    return () => observer.disconnect();
  }, [measure, items, t]);

  // A new page closes the menu.
  useEffect(() => setOpen(false), [pathname, search]);

  // A click or tap elsewhere closes it.
  useEffect(() => {
    if (!isOpen) return;
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [isOpen]);

  const menuLinks = () => [...(menuRef.current?.querySelectorAll<HTMLAnchorElement>('a') ?? [])];

  function focusLink(index: number) {
    const links = menuLinks();
    if (links.length === 0) return;
    links[(index + links.length) % links.length]?.focus();
  }

  function onButtonKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const index = event.key === 'ArrowDown' ? 0 : -1;
    if (isOpen) return focusLink(index);
    // A closed list is shown by the next render; focus moves once it is.
    flushSync(() => setOpen(true));
    focusLink(index);
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const links = menuLinks();
    const current = links.indexOf(document.activeElement as HTMLAnchorElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      buttonRef.current?.focus();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      focusLink(current + (event.key === 'ArrowDown' ? 1 : -1));
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      focusLink(event.key === 'Home' ? 0 : -1);
    }
  }

  const overflow = items.slice(visibleCount);
  const isActiveInMenu = overflow.some((item) => item.path === activePath);
  const label = (item: NavItem) => (
    <>
      <Icon name={iconForPath(item.path)} size={18} />
      {t(item.key)}
    </>
  );

  return (
    <nav className="site-nav" aria-label={t('header.navigation')} ref={navRef} data-visible-count={visibleCount}>
      <div className="site-nav__measure" aria-hidden="true" ref={measureRef}>
        {items.map((item) => (
          <span key={item.path} className="site-nav__link" data-measure-item>
            {label(item)}
          </span>
        ))}
        <span className="site-nav__link site-nav__more-button" data-measure-more>
          {t('header.more')}
          <Icon name="chevron-down" size={16} />
        </span>
      </div>
      <div className="site-nav__strip" data-nav-strip>
        {items.slice(0, visibleCount).map((item) => (
          <Link
            key={item.path}
            to={localePath(item.path)}
            className={`site-nav__link${item.path === activePath ? ' active' : ''}`}
            aria-current={item.path === activePath ? 'page' : undefined}
          >
            {label(item)}
          </Link>
        ))}
      </div>
      {overflow.length > 0 && (
        <div
          className="site-nav__more"
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
          }}
        >
          <button
            type="button"
            ref={buttonRef}
            className={`site-nav__link site-nav__more-button${isActiveInMenu ? ' active' : ''}`}
            aria-expanded={isOpen}
            aria-controls={menuId}
            data-nav-more
            onClick={() => setOpen((open) => !open)}
            onKeyDown={onButtonKeyDown}
          >
            {t('header.more')}
            <Icon name="chevron-down" size={16} />
          </button>
          <ul id={menuId} className="site-nav__menu" hidden={!isOpen} ref={menuRef} onKeyDown={onMenuKeyDown} data-nav-menu>
            {overflow.map((item) => (
              <li key={item.path}>
                <Link
                  to={localePath(item.path)}
                  className={`site-nav__menu-link${item.path === activePath ? ' active' : ''}`}
                  aria-current={item.path === activePath ? 'page' : undefined}
                  onClick={() => setOpen(false)}
                >
                  {label(item)}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      )}
    </nav>
  );
}
