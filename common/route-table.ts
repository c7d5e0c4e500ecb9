/**
 * The route table of spec §2, written once. app/routes.ts generates every entry twice (English
 * without prefix, Italian under /it) with names ending ___en / ___it; the server reads it for
 * the sitemap and for telling matched routes from unmatched ones.
 */
export type LayoutName = 'default' | 'empty' | 'game';

export interface RouteEntry {
  /** Route name without locale suffix, in the spec's naming (e.g. cashier-index-deposit). */
  name: string;
  /** React Router path pattern, without locale prefix; '' is the index. */
  path: string;
  /** Route module under app/routes/. */
  file: string;
  layout: LayoutName;
  /** Listed in sitemap.xml (public, no parameters). */
  isPublicPage?: boolean;
  /**
   * Shown inside another page's frame (the game client in /game/{sysname}): the page around it
   * carries the site's marks, so the frame's document shows no demo ribbon of its own (issue 15).
   */
  isFramed?: boolean;
}

const shell = 'routes/page-shell.tsx';
const payment = 'routes/payment-result.tsx';

function entry(name: string, path: string, file: string, options: Partial<RouteEntry> = {}): RouteEntry {
  return { name, path, file, layout: 'default', ...options };
}

export const ROUTE_TABLE: readonly RouteEntry[] = [
  entry('index', '', 'routes/home.tsx', { isPublicPage: true }),
  entry('betting', 'betting', 'routes/betting.tsx', { isPublicPage: true }),
  entry('cashier', 'cashier', 'routes/fixed-redirect.tsx'),
  entry('cashier-index-billing', 'cashier/billing', 'routes/fixed-redirect.tsx'),
  entry('cashier-index-deposit', 'cashier/deposit', 'routes/cashier-deposit.tsx'),
  entry('cashier-index-deposit-index-sysname', 'cashier/deposit/:sysname', 'routes/cashier-deposit.tsx'),
  entry('cashier-index-history', 'cashier/history', 'routes/cashier-history.tsx'),
  entry('cashier-index-paycancel', 'cashier/paycancel', payment),
  entry('cashier-index-payfail', 'cashier/payfail', payment),
  entry('cashier-index-payfail-transaction', 'cashier/payfail/:transaction', payment),
  entry('cashier-index-paypending', 'cashier/paypending', payment),
  entry('cashier-index-paypending-transaction', 'cashier/paypending/:transaction', payment),
  entry('cashier-index-paysuccess', 'cashier/paysuccess', payment),
  entry('cashier-index-paysuccess-transaction', 'cashier/paysuccess/:transaction', payment),
  entry('cashier-index-paymobile', 'cashier/paymobile', payment),
  entry('cashier-index-paynewwindow', 'cashier/paynewwindow', payment),
  entry('cashier-index-receipt', 'cashier/receipt', 'routes/cashier-receipt.tsx'),
  entry('cashier-index-wallet', 'cashier/wallet', 'routes/cashier-wallet.tsx'),
  entry('cashier-index-withdraw', 'cashier/withdraw', 'routes/cashier-withdraw.tsx'),
  entry('confirmation', 'confirmation', shell),
  entry('confirmation-success', 'confirmation/success', shell),
  entry('forms-sign_in', 'forms/sign_in', 'routes/auth-form.tsx', { layout: 'empty' }),
  entry('forms-sign_up', 'forms/sign_up', 'routes/auth-form.tsx', { layout: 'empty' }),
  entry('game-sysname', 'game/:sysname', 'routes/game.tsx', { layout: 'game' }),
  entry('gamehall', 'gamehall', 'routes/gamehall.tsx', { isPublicPage: true }),
  entry('gamehall-id', 'gamehall/:id', 'routes/gamehall.tsx'),
  entry('jackpots', 'jackpots', shell, { isPublicPage: true }),
  entry('jackpots-id', 'jackpots/:id', shell),
  entry('loyalty', 'loyalty', shell, { isPublicPage: true }),
  entry('loyalty-shop', 'loyalty/shop', shell, { isPublicPage: true }),
  entry('loyalty-sysname', 'loyalty/:sysname', shell),
  entry('offers', 'offers', 'routes/promotions.tsx', { isPublicPage: true }),
  entry('offers-id', 'offers/:id', 'routes/promotions.tsx'),
  entry('profile', 'profile', 'routes/fixed-redirect.tsx'),
  entry('profile-index-settings', 'profile/settings', 'routes/profile-settings.tsx'),
  entry('profile-index-security', 'profile/security', 'routes/profile-security.tsx'),
  entry('profile-index-verification', 'profile/verification', 'routes/profile-verification.tsx'),
  entry('profile-index-responsible-game', 'profile/responsible-game', 'routes/profile-responsible-game.tsx'),
  entry('profile-index-bets', 'profile/bets', 'routes/profile-bets.tsx'),
  entry('profile-index-loyalty', 'profile/loyalty', 'routes/profile-loyalty.tsx'),
  entry('profile-index-bonuses', 'profile/bonuses', 'routes/profile-bonuses.tsx'),
  entry('profile-index-cashback', 'profile/cashback', 'routes/profile-cashback.tsx'),
  entry('profile-index-notification', 'profile/notification', 'routes/profile-notification.tsx'),
  entry('promotions', 'promotions', 'routes/promotions.tsx', { isPublicPage: true }),
  entry('promotions-id', 'promotions/:id', 'routes/promotions.tsx'),
  entry('providers', 'providers', 'routes/providers.tsx', { isPublicPage: true }),
  entry('support', 'support', shell, { isPublicPage: true }),
  entry('tournaments', 'tournaments', shell, { isPublicPage: true }),
  entry('tournaments-id', 'tournaments/:id', shell),
  entry('tournaments-id-gamehall', 'tournaments/:id/gamehall', shell),
  entry('unsubscribe', 'unsubscribe', 'routes/system.tsx'),
  entry('winners', 'winners', shell, { isPublicPage: true }),
  entry('_icons', '_icons', 'routes/icons.tsx'),
  entry('responsible-game', 'responsible-game', 'routes/placeholder.tsx'),
  entry('bets-all', 'bets/*', 'routes/bets.tsx'),
  // Last: a single segment that no route above claims is a content page.
  entry('slug', ':slug', 'routes/content-page.tsx'),
];

/** Where a placeholder route (spec §2: no page of its own) sends a signed-in player. */
export const PLACEHOLDER_TARGETS: Record<string, string> = {
  'responsible-game': '/profile/responsible-game',
};

/**
 * The in-house game client, outside the spec's page table (it is an address helper, not a page of
 * §2): what /game/{sysname} shows in its frame. A React Router route in the empty layout (no site
 * chrome) rather than a server-rendered page, so the client shares the app's i18n, API client,
 * styles and the pure engines of common/games for in-browser verification.
 */
export const GAME_CLIENT_ROUTES: readonly RouteEntry[] = [
  entry('platform-game-sysname-mode', 'platform/game/:sysname/:mode', 'routes/game-client.tsx', {
    layout: 'empty',
    isFramed: true,
  }),
];

export type GamePlayMode = 'play' | 'demo';

/** Spec §2 game-play address helper: /platform/game/{sysname, or custom/{customId}}/{mode}, mode defaulting to play. */
export function gamePlayPath(game: string | { customId: string }, mode: GamePlayMode = 'play'): string {
  const target = typeof game === 'string' ? encodeURIComponent(game) : `custom/${encodeURIComponent(game.customId)}`;
  return `/platform/game/${target}/${mode}`;
}

export function findRouteEntry(name: string): RouteEntry | undefined {
  return ROUTE_TABLE.find((route) => route.name === name) ?? GAME_CLIENT_ROUTES.find((route) => route.name === name);
}
