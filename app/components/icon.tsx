/** Inline SVG icons (default view box 0 0 24 24, spec §9); nothing is fetched from outside. */
export const ICONS: Record<string, string> = {
  home: 'M3 11l9-8 9 8v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z',
  casino:
    'M5 3h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zm3 4a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm8 7a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z',
  live: 'M12 8a4 4 0 1 1 0 8 4 4 0 0 1 0-8zM4.9 4.9l1.4 1.4a8 8 0 0 0 0 11.4l-1.4 1.4a10 10 0 0 1 0-14.2zm14.2 0a10 10 0 0 1 0 14.2l-1.4-1.4a8 8 0 0 0 0-11.4z',
  betting: 'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zm0 4l-3 2.2 1.1 3.6h3.8L15 8.2z',
  gift: 'M4 10h16v11H4zM2 6h20v4H2zm10 0v15M12 6S10 2 7.5 2.5 7 6 12 6zm0 0s2-4 4.5-3.5S17 6 12 6z',
  trophy: 'M7 3h10v5a5 5 0 0 1-10 0zM5 4H2v2a4 4 0 0 0 4 4M19 4h3v2a4 4 0 0 1-4 4M9 21h6M12 13v8',
  user: 'M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm-9 10a9 9 0 0 1 18 0z',
  wallet: 'M3 6h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H3zm0 0l12-3v3M16 13h2',
  search: 'M10.5 3a7.5 7.5 0 1 1 0 15 7.5 7.5 0 0 1 0-15zM21 21l-5-5',
  chat: 'M4 4h16v12H8l-4 4z',
  close: 'M5 5l14 14M19 5L5 19',
  star: 'M12 2l3 6.5 7 1-5 4.8 1.2 7-6.2-3.4-6.2 3.4L7 14.3 2 9.5l7-1z',
  menu: 'M4 7h16M4 12h16M4 17h10',
  check: 'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zM7.5 12.5l3 3 6-6.5',
  shield: 'M12 2l8 3v6c0 5-3.4 9.3-8 11-4.6-1.7-8-6-8-11V5zM8.5 12l2.5 2.5 4.5-5',
  lock: 'M6 10h12a1 1 0 0 1 1 1v9a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1v-9a1 1 0 0 1 1-1zm2 0V7a4 4 0 0 1 8 0v3m-4 4v3',
  coins:
    'M9 4c3.9 0 7 1.3 7 3s-3.1 3-7 3-7-1.3-7-3 3.1-3 7-3zM2 7v4c0 1.7 3.1 3 7 3s7-1.3 7-3V7M2 11v4c0 1.7 3.1 3 7 3 1.2 0 2.3-.1 3.3-.4M16 12c3.3.2 6 1.4 6 2.9 0 1.7-3.1 3-7 3M22 15v3.5c0 1.6-2.8 2.9-6.5 3',
  bell: 'M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 21h4',
  clock: 'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zm0 5v5l3.5 2',
  mail: 'M3 5h18v14H3zm0 0l9 7 9-7',
  document: 'M6 2h8l5 5v14a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V3a1 1 0 0 1 1-1zm8 0v5h5M8.5 12h7M8.5 16h7',
  play: 'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zm-2 6.5v7l6-3.5z',
  flame:
    'M12 22c4 0 7-2.7 7-6.6 0-3.4-2.2-5.5-3.8-7.4-.4 1.8-1.3 3-2.6 3.6C13 8 11.8 4.8 9 2c0 3.6-4 6.5-4 11.4C5 19.3 8 22 12 22zm0 0c-1.7 0-3-1.2-3-3 0-1.9 1.8-3 2.4-4.6 1.6 1.3 3.6 2.7 3.6 4.6 0 1.8-1.3 3-3 3z',
  sparkle: 'M12 3l1.8 5.2L19 10l-5.2 1.8L12 17l-1.8-5.2L5 10l5.2-1.8zM19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8z',
  globe:
    'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zM2 12h20M12 2c2.6 2.8 4 6.2 4 10s-1.4 7.2-4 10c-2.6-2.8-4-6.2-4-10s1.4-7.2 4-10z',
  'arrow-right': 'M5 12h14M13 6l6 6-6 6',
  heart: 'M12 20.5S3 15 3 8.8A4.8 4.8 0 0 1 12 6a4.8 4.8 0 0 1 9 2.8C21 15 12 20.5 12 20.5z',
  expand: 'M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5',
  shrink: 'M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5',
  'chevron-down': 'M6 9l6 6 6-6',
  // The sports of the betting area (issue 14), one outline each.
  'sport-football':
    'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zm0 5.5l-3.8 2.8 1.5 4.5h4.6l1.5-4.5zM12 7.5V2.6M8.2 10.3L3.4 8.9M15.8 10.3l4.8-1.4M9.7 14.8l-2.9 4.1M14.3 14.8l2.9 4.1',
  'sport-tennis': 'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zM4.6 5.3c3.2 3.6 3.2 9.8 0 13.4M19.4 5.3c-3.2 3.6-3.2 9.8 0 13.4',
  'sport-basketball':
    'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zM2 12h20M12 2v20M5 4.6c2.6 2.1 4 4.6 4 7.4s-1.4 5.3-4 7.4M19 4.6c-2.6 2.1-4 4.6-4 7.4s1.4 5.3 4 7.4',
  'sport-ice_hockey': 'M7 2l3.5 13.5a2 2 0 0 1-1.9 2.5H3v-3h4.5M17 2l-3.5 13.5a2 2 0 0 0 1.9 2.5H21v-3h-4.5M9 21h6',
};

export function Icon({ name, size = 24, title }: { name: string; size?: number; title?: string }) {
  const path = ICONS[name];
  if (!path) return null;
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      role={title ? 'img' : undefined}
      aria-hidden={title ? undefined : true}
      aria-label={title}
    >
      <path d={path} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
