/**
 * Which icon of the sprite stands for a page: by route name (page shells) or by path (navigation
 * links from configuration), so every section of the site keeps one recognisable symbol.
 */
const BY_SECTION: Record<string, string> = {
  index: 'home',
  betting: 'betting',
  cashier: 'wallet',
  confirmation: 'check',
  game: 'play',
  gamehall: 'casino',
  jackpots: 'coins',
  loyalty: 'star',
  offers: 'gift',
  profile: 'user',
  promotions: 'gift',
  providers: 'casino',
  support: 'chat',
  tournaments: 'trophy',
  unsubscribe: 'mail',
  winners: 'trophy',
};

/** Profile and cashier screens have a symbol of their own. */
const BY_ROUTE: Record<string, string> = {
  'cashier-index-history': 'clock',
  'profile-index-security': 'lock',
  'profile-index-verification': 'shield',
  'profile-index-responsible-game': 'shield',
  'profile-index-bets': 'betting',
  'profile-index-loyalty': 'star',
  'profile-index-bonuses': 'gift',
  'profile-index-cashback': 'coins',
  'profile-index-notification': 'bell',
};

export function iconForRoute(routeName: string): string {
  return BY_ROUTE[routeName] ?? BY_SECTION[routeName.split('-')[0] ?? ''] ?? 'star';
}

/** A configured navigation path: '/gamehall?category=live' is the live casino. */
export function iconForPath(path: string): string {
  const url = new URL(path, 'http://site.invalid');
  if (url.searchParams.get('category') === 'live') return 'live';
  const section = url.pathname.split('/').filter(Boolean)[0] ?? 'index';
  return BY_SECTION[section] ?? 'star';
}
