/** The game client's texts in the launch's language (en, it). Titles' names are the studios' own. */
const en = {
  'balance.real': 'Balance',
  'balance.demo': 'Fun balance',
  'mode.real': 'Real money',
  'mode.demo': 'Demo',
  stake: 'Stake',
  'stake.less': 'Lower stake',
  'stake.more': 'Raise stake',
  spin: 'Spin',
  drop: 'Drop ball',
  draw: 'Draw',
  win: 'Win',
  'win.total': 'Total win',
  'win.none': 'No win this time',
  'freeSpins.start': '$$count$$ free spins, wins × $$multiplier$$',
  'freeSpins.progress': 'Free spin $$spin$$ of $$count$$',
  lines: '$$lines$$ lines',
  risk: 'Risk',
  'risk.low': 'Low',
  'risk.medium': 'Medium',
  'risk.high': 'High',
  'keno.pick': 'Pick 1 to 10 numbers',
  'keno.picked': '$$count$$ picked',
  'keno.hits': '$$hits$$ of $$count$$ hit',
  'keno.clear': 'Clear',
  'keno.random': 'Quick pick',
  'keno.pays': 'Pays for $$count$$ picks',
  loading: 'Loading the game…',
  'error.INVALID_INPUT': 'That stake or choice is not allowed.',
  'error.INSUFFICIENT_FUNDS': 'Your balance does not cover this stake.',
  'error.PLAYER_BLOCKED': 'Play is paused on your account (responsible gaming limits).',
  'error.SESSION_EXPIRED': 'This game session has ended. Reopen the game to play on.',
  'error.SESSION_NOT_FOUND': 'This game session has ended. Reopen the game to play on.',
  'error.ROUND_IN_PROGRESS': 'Finish the round in play first.',
  'error.ROUND_NOT_FOUND': 'That round is over.',
  'error.WALLET_UNAVAILABLE': 'The casino could not be reached; your stake was returned. Try again.',
  'error.REFUSED': 'The casino refused this bet.',
  'error.network': 'No connection to the game server. Try again.',
  'error.unknown': 'Something went wrong. Try again.',
  'names.fox-fortune': 'Fox Fortune',
  'names.red-hot-sevens': 'Red Hot Sevens',
  'names.frozen-fjord': 'Frozen Fjord',
  'names.midnight-aurora': 'Midnight Aurora',
  'names.viking-gold': 'Viking Gold',
  'names.polar-pearls': 'Polar Pearls',
  'names.sugar-blast': 'Sugar Blast',
  'names.plinko-drop': 'Plinko Drop',
  'names.snowball-keno': 'Snowball Keno',
  'studio.redfox': 'Red Fox Gaming',
  'studio.northlight': 'Northlight Studios',
  'studio.livewave': 'LiveWave',
};

export type TextKey = keyof typeof en;

const it: Record<TextKey, string> = {
  'balance.real': 'Saldo',
  'balance.demo': 'Saldo demo',
  'mode.real': 'Soldi veri',
  'mode.demo': 'Demo',
  stake: 'Puntata',
  'stake.less': 'Abbassa la puntata',
  'stake.more': 'Alza la puntata',
  spin: 'Gira',
  drop: 'Lancia',
  draw: 'Estrai',
  win: 'Vincita',
  'win.total': 'Vincita totale',
  'win.none': 'Nessuna vincita',
  'freeSpins.start': '$$count$$ giri gratis, vincite × $$multiplier$$',
  'freeSpins.progress': 'Giro gratis $$spin$$ di $$count$$',
  lines: '$$lines$$ linee',
  risk: 'Rischio',
  'risk.low': 'Basso',
  'risk.medium': 'Medio',
  'risk.high': 'Alto',
  'keno.pick': 'Scegli da 1 a 10 numeri',
  'keno.picked': '$$count$$ scelti',
  'keno.hits': '$$hits$$ su $$count$$ indovinati',
  'keno.clear': 'Azzera',
  'keno.random': 'Scelta rapida',
  'keno.pays': 'Vincite con $$count$$ numeri',
  loading: 'Caricamento del gioco…',
  'error.INVALID_INPUT': 'Puntata o scelta non consentita.',
  'error.INSUFFICIENT_FUNDS': 'Il saldo non copre questa puntata.',
  'error.PLAYER_BLOCKED': 'Il gioco è sospeso sul tuo conto (limiti di gioco responsabile).',
  'error.SESSION_EXPIRED': 'La sessione di gioco è terminata. Riapri il gioco per continuare.',
  'error.SESSION_NOT_FOUND': 'La sessione di gioco è terminata. Riapri il gioco per continuare.',
  'error.ROUND_IN_PROGRESS': 'Prima concludi il round in corso.',
  'error.ROUND_NOT_FOUND': 'Quel round è concluso.',
  'error.WALLET_UNAVAILABLE': 'Il casinò non risponde; la puntata è stata restituita. Riprova.',
  'error.REFUSED': 'Il casinò ha rifiutato la puntata.',
  'error.network': 'Nessuna connessione al server di gioco. Riprova.',
  'error.unknown': 'Qualcosa è andato storto. Riprova.',
  'names.fox-fortune': 'Fortuna della Volpe',
  'names.red-hot-sevens': 'Sette Roventi',
  'names.frozen-fjord': 'Fiordo Ghiacciato',
  'names.midnight-aurora': 'Aurora di Mezzanotte',
  'names.viking-gold': 'Oro Vichingo',
  'names.polar-pearls': 'Perle Polari',
  'names.sugar-blast': 'Esplosione di Zucchero',
  'names.plinko-drop': 'Plinko Caduta',
  'names.snowball-keno': 'Keno Palla di Neve',
  'studio.redfox': 'Red Fox Gaming',
  'studio.northlight': 'Northlight Studios',
  'studio.livewave': 'LiveWave',
};

export type Language = 'en' | 'it';
const TEXTS: Record<Language, Record<string, string>> = { en, it };

/** Adds texts (a table title's own): `extendTexts({ en: {...}, it: {...} })`, same keys in both. */
export function extendTexts(more: Record<Language, Record<string, string>>): void {
  Object.assign(TEXTS.en, more.en);
  Object.assign(TEXTS.it, more.it);
}

export type Translate = (key: string, values?: Record<string, string | number>) => string;

export function translator(language: Language): Translate {
  return (key, values = {}) =>
    (TEXTS[language][key] ?? TEXTS.en[key] ?? key).replace(/\$\$(\w+)\$\$/g, (_, name: string) => String(values[name] ?? ''));
}
