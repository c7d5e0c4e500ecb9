/**
 * The drawn symbols of the studios' slots (100 × 100 each). Shared gradients are defined once in
 * a hidden sprite (artDefs) and referenced by id; every symbol is shapes, never a letter.
 */
const DEFS = `
<linearGradient id="ag-gold" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fff3b0"/><stop offset=".45" stop-color="#f5c542"/><stop offset="1" stop-color="#b7791f"/></linearGradient>
<linearGradient id="ag-red" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ff8a80"/><stop offset=".5" stop-color="#e53935"/><stop offset="1" stop-color="#8e1b1b"/></linearGradient>
<linearGradient id="ag-orange" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffcc80"/><stop offset=".5" stop-color="#fb8c00"/><stop offset="1" stop-color="#bf4a00"/></linearGradient>
<linearGradient id="ag-yellow" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fffde7"/><stop offset=".5" stop-color="#ffeb3b"/><stop offset="1" stop-color="#f9a825"/></linearGradient>
<linearGradient id="ag-purple" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#e1bee7"/><stop offset=".5" stop-color="#8e24aa"/><stop offset="1" stop-color="#4a148c"/></linearGradient>
<linearGradient id="ag-blue" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#b3e5fc"/><stop offset=".5" stop-color="#29b6f6"/><stop offset="1" stop-color="#01579b"/></linearGradient>
<linearGradient id="ag-ice" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ffffff"/><stop offset=".5" stop-color="#b3e5fc"/><stop offset="1" stop-color="#4fc3f7"/></linearGradient>
<linearGradient id="ag-green" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#c8e6c9"/><stop offset=".5" stop-color="#43a047"/><stop offset="1" stop-color="#1b5e20"/></linearGradient>
<linearGradient id="ag-steel" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#eceff1"/><stop offset=".5" stop-color="#90a4ae"/><stop offset="1" stop-color="#455a64"/></linearGradient>
<linearGradient id="ag-wood" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#bcaaa4"/><stop offset="1" stop-color="#5d4037"/></linearGradient>
<linearGradient id="ag-pink" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fce4ec"/><stop offset=".5" stop-color="#f06292"/><stop offset="1" stop-color="#ad1457"/></linearGradient>
<linearGradient id="ag-teal" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#b2dfdb"/><stop offset=".5" stop-color="#26a69a"/><stop offset="1" stop-color="#00695c"/></linearGradient>
<radialGradient id="ag-pearl" cx=".35" cy=".35" r=".7"><stop offset="0" stop-color="#ffffff"/><stop offset=".6" stop-color="#f3e5f5"/><stop offset="1" stop-color="#b39ddb"/></radialGradient>
<radialGradient id="ag-glow" cx=".5" cy=".5" r=".5"><stop offset="0" stop-color="#fff59d"/><stop offset=".6" stop-color="#ffb300" stop-opacity=".7"/><stop offset="1" stop-color="#ff6f00" stop-opacity="0"/></radialGradient>
`;

const OUTLINE = 'stroke="#1a1030" stroke-width="3" stroke-linejoin="round"';

export const SYMBOL_ART: Record<string, string> = {
  fox: `<path d="M18 20 L38 38 L62 38 L82 20 L78 58 L50 84 L22 58 Z" fill="url(#ag-orange)" ${OUTLINE}/><path d="M30 58 L50 84 L70 58 L50 66 Z" fill="#fff8f0" ${OUTLINE}/><circle cx="38" cy="52" r="4.5" fill="#1a1030"/><circle cx="62" cy="52" r="4.5" fill="#1a1030"/><path d="M46 74 L54 74 L50 80 Z" fill="#1a1030"/><path d="M24 26 L34 37 L28 44 Z M76 26 L66 37 L72 44 Z" fill="#5d1f00"/>`,
  coin: `<circle cx="50" cy="50" r="36" fill="url(#ag-gold)" ${OUTLINE}/><circle cx="50" cy="50" r="26" fill="none" stroke="#b7791f" stroke-width="3"/><path d="M50 30 L56 44 L71 45 L59 54 L63 69 L50 61 L37 69 L41 54 L29 45 L44 44 Z" fill="#fff3b0" stroke="#b7791f" stroke-width="2"/>`,
  bell: `<path d="M50 14 C34 14 28 30 28 46 L26 66 L18 74 L82 74 L74 66 L72 46 C72 30 66 14 50 14 Z" fill="url(#ag-gold)" ${OUTLINE}/><circle cx="50" cy="80" r="7" fill="url(#ag-gold)" ${OUTLINE}/><path d="M38 28 C36 36 35 44 35 52" stroke="#fffde7" stroke-width="5" stroke-linecap="round" fill="none"/>`,
  cherry: `<path d="M50 18 C46 34 36 46 30 58 M50 18 C56 34 62 46 68 56" stroke="#2e7d32" stroke-width="5" fill="none" stroke-linecap="round"/><path d="M50 18 C60 12 72 16 76 24 C66 26 58 24 50 18 Z" fill="url(#ag-green)" ${OUTLINE}/><circle cx="30" cy="66" r="16" fill="url(#ag-red)" ${OUTLINE}/><circle cx="68" cy="64" r="16" fill="url(#ag-red)" ${OUTLINE}/><circle cx="25" cy="60" r="4" fill="#ffcdd2"/><circle cx="63" cy="58" r="4" fill="#ffcdd2"/>`,
  lemon: `<ellipse cx="50" cy="52" rx="36" ry="26" fill="url(#ag-yellow)" ${OUTLINE} transform="rotate(-18 50 52)"/><path d="M14 60 L8 64 M86 42 L92 38" stroke="#1a1030" stroke-width="4" stroke-linecap="round"/><ellipse cx="40" cy="44" rx="10" ry="5" fill="#fffde7" transform="rotate(-18 40 44)"/>`,
  plum: `<circle cx="50" cy="56" r="30" fill="url(#ag-purple)" ${OUTLINE}/><path d="M50 28 C50 36 50 44 48 56" stroke="#4a148c" stroke-width="3" fill="none"/><path d="M50 26 C58 14 72 14 78 20 C70 28 60 30 50 26 Z" fill="url(#ag-green)" ${OUTLINE}/><ellipse cx="38" cy="46" rx="6" ry="9" fill="#e1bee7" opacity=".8"/>`,
  seven: `<path d="M20 18 L82 18 L82 30 C66 46 56 64 52 86 L32 86 C36 64 48 46 60 34 L20 34 Z" fill="url(#ag-red)" ${OUTLINE}/><path d="M26 22 L76 22" stroke="#ffcdd2" stroke-width="4" stroke-linecap="round"/>`,
  bar: `<rect x="12" y="30" width="76" height="40" rx="8" fill="#1a1030" ${OUTLINE}/><rect x="18" y="36" width="64" height="28" rx="5" fill="url(#ag-gold)"/><path d="M24 44 L76 44 M24 50 L76 50 M24 56 L76 56" stroke="#b7791f" stroke-width="4"/>`,
  ship: `<path d="M14 62 L86 62 L74 80 L26 80 Z" fill="url(#ag-wood)" ${OUTLINE}/><path d="M50 14 L50 62" stroke="#3e2723" stroke-width="4"/><path d="M52 18 L80 56 L52 56 Z" fill="url(#ag-red)" ${OUTLINE}/><path d="M48 22 L24 56 L48 56 Z" fill="#fafafa" ${OUTLINE}/><path d="M8 86 C20 80 32 92 44 86 C56 80 68 92 92 84" stroke="#4fc3f7" stroke-width="4" fill="none"/>`,
  fish: `<path d="M14 50 C30 26 64 26 78 50 C64 74 30 74 14 50 Z" fill="url(#ag-blue)" ${OUTLINE}/><path d="M78 50 L94 34 L92 66 Z" fill="url(#ag-blue)" ${OUTLINE}/><circle cx="30" cy="46" r="5" fill="#fff"/><circle cx="30" cy="46" r="2.5" fill="#1a1030"/><path d="M46 38 C52 46 52 54 46 62 M58 38 C64 46 64 54 58 62" stroke="#e1f5fe" stroke-width="3" fill="none"/>`,
  snowflake: `<g stroke="url(#ag-ice)" stroke-width="7" stroke-linecap="round"><path d="M50 12 L50 88 M17 31 L83 69 M17 69 L83 31"/></g><g stroke="#e1f5fe" stroke-width="4" stroke-linecap="round" fill="none"><path d="M40 18 L50 28 L60 18 M40 82 L50 72 L60 82 M18 42 L30 38 L26 26 M82 58 L70 62 L74 74 M18 58 L30 62 L26 74 M82 42 L70 38 L74 26"/></g><circle cx="50" cy="50" r="8" fill="#ffffff" stroke="#4fc3f7" stroke-width="3"/>`,
  moon: `<path d="M62 12 C38 16 24 34 24 54 C24 74 40 90 62 88 C44 80 36 66 36 50 C36 34 46 20 62 12 Z" fill="url(#ag-gold)" ${OUTLINE}/><circle cx="74" cy="28" r="3" fill="#fff59d"/><circle cx="80" cy="52" r="2.5" fill="#fff59d"/><circle cx="70" cy="72" r="2" fill="#fff59d"/>`,
  pearl: `<path d="M16 66 C16 42 84 42 84 66 C84 80 16 80 16 66 Z" fill="url(#ag-teal)" ${OUTLINE}/><circle cx="50" cy="48" r="22" fill="url(#ag-pearl)" ${OUTLINE}/><circle cx="42" cy="40" r="6" fill="#ffffff"/>`,
  owl: `<path d="M24 30 L34 16 L42 28 L58 28 L66 16 L76 30 L78 70 C78 84 22 84 22 70 Z" fill="url(#ag-wood)" ${OUTLINE}/><circle cx="38" cy="44" r="11" fill="#fff8e1" ${OUTLINE}/><circle cx="62" cy="44" r="11" fill="#fff8e1" ${OUTLINE}/><circle cx="38" cy="44" r="5" fill="#1a1030"/><circle cx="62" cy="44" r="5" fill="#1a1030"/><path d="M46 56 L54 56 L50 64 Z" fill="url(#ag-orange)" ${OUTLINE}/><path d="M32 70 C40 66 60 66 68 70" stroke="#d7ccc8" stroke-width="3" fill="none"/>`,
  diamond: `<path d="M28 22 L72 22 L90 42 L50 88 L10 42 Z" fill="url(#ag-blue)" ${OUTLINE}/><path d="M10 42 L90 42 M28 22 L40 42 L50 88 L60 42 L72 22 M40 42 L50 22 L60 42" stroke="#e1f5fe" stroke-width="2.5" fill="none"/>`,
  axe: `<path d="M46 12 L54 12 L56 90 L44 90 Z" fill="url(#ag-wood)" ${OUTLINE}/><path d="M52 20 C70 14 86 24 88 44 C80 38 66 40 54 46 Z" fill="url(#ag-steel)" ${OUTLINE}/><path d="M48 20 C30 14 14 24 12 44 C20 38 34 40 46 46 Z" fill="url(#ag-steel)" ${OUTLINE}/>`,
  shield: `<circle cx="50" cy="50" r="38" fill="url(#ag-wood)" ${OUTLINE}/><path d="M50 12 L50 88 M12 50 L88 50" stroke="#3e2723" stroke-width="3"/><circle cx="50" cy="50" r="38" fill="none" stroke="url(#ag-steel)" stroke-width="7"/><circle cx="50" cy="50" r="11" fill="url(#ag-gold)" ${OUTLINE}/>`,
  horn: `<path d="M16 30 C36 30 62 40 78 66 L88 80 L72 86 L64 72 C54 52 36 44 16 44 Z" fill="url(#ag-gold)" ${OUTLINE}/><path d="M34 32 L32 44 M52 38 L46 50" stroke="#b7791f" stroke-width="4"/><path d="M16 30 C10 30 10 44 16 44" fill="#8d6e63" ${OUTLINE}/>`,
  rune: `<path d="M30 12 L70 12 C78 12 84 18 84 26 L84 74 C84 82 78 88 70 88 L30 88 C22 88 16 82 16 74 L16 26 C16 18 22 12 30 12 Z" fill="url(#ag-steel)" ${OUTLINE}/><path d="M40 26 L40 74 M40 30 L62 42 L40 54 M40 54 L62 70" stroke="#4fc3f7" stroke-width="6" stroke-linecap="round" stroke-linejoin="round" fill="none"/>`,
  shell: `<path d="M50 86 L14 50 C14 26 30 14 50 14 C70 14 86 26 86 50 Z" fill="url(#ag-pink)" ${OUTLINE}/><path d="M50 86 L28 24 M50 86 L42 16 M50 86 L58 16 M50 86 L72 24" stroke="#ad1457" stroke-width="3" fill="none"/><path d="M40 82 L60 82 L50 92 Z" fill="url(#ag-pink)" ${OUTLINE}/>`,
  wild: `<circle cx="50" cy="50" r="44" fill="url(#ag-glow)"/><path d="M18 70 L14 32 L34 48 L50 20 L66 48 L86 32 L82 70 Z" fill="url(#ag-gold)" ${OUTLINE}/><rect x="18" y="70" width="64" height="12" rx="3" fill="url(#ag-gold)" ${OUTLINE}/><circle cx="50" cy="56" r="6" fill="url(#ag-red)" ${OUTLINE}/><circle cx="30" cy="60" r="4" fill="url(#ag-blue)"/><circle cx="70" cy="60" r="4" fill="url(#ag-blue)"/>`,
  scatter: `<circle cx="50" cy="50" r="46" fill="url(#ag-glow)"/><path d="M50 8 L61 38 L93 38 L67 57 L77 89 L50 70 L23 89 L33 57 L7 38 L39 38 Z" fill="url(#ag-pink)" ${OUTLINE}/><path d="M50 26 L56 42 L72 42 L59 52 L64 68 L50 58 L36 68 L41 52 L28 42 L44 42 Z" fill="#fff59d"/>`,
  heart: `<path d="M50 84 C20 62 10 46 14 32 C18 18 38 14 50 30 C62 14 82 18 86 32 C90 46 80 62 50 84 Z" fill="url(#ag-red)" ${OUTLINE}/><ellipse cx="32" cy="34" rx="7" ry="5" fill="#ffcdd2"/>`,
  'star-candy': `<path d="M50 10 L62 38 L92 40 L68 60 L76 90 L50 73 L24 90 L32 60 L8 40 L38 38 Z" fill="url(#ag-yellow)" ${OUTLINE}/><circle cx="42" cy="42" r="5" fill="#fffde7"/>`,
  lollipop: `<path d="M50 56 L50 94" stroke="#eceff1" stroke-width="6" stroke-linecap="round"/><circle cx="50" cy="36" r="28" fill="url(#ag-pink)" ${OUTLINE}/><path d="M50 36 m-18 0 a18 18 0 1 1 36 0 a12 12 0 1 1 -24 0 a6 6 0 1 1 12 0" stroke="#fff" stroke-width="4" fill="none"/>`,
  gumdrop: `<path d="M18 80 C18 44 30 18 50 18 C70 18 82 44 82 80 Z" fill="url(#ag-green)" ${OUTLINE}/><circle cx="38" cy="40" r="3" fill="#fff"/><circle cx="56" cy="34" r="3" fill="#fff"/><circle cx="62" cy="56" r="3" fill="#fff"/><circle cx="40" cy="62" r="3" fill="#fff"/>`,
  wrapped: `<path d="M8 34 L28 44 L28 56 L8 66 Z M92 34 L72 44 L72 56 L92 66 Z" fill="url(#ag-blue)" ${OUTLINE}/><ellipse cx="50" cy="50" rx="26" ry="20" fill="url(#ag-purple)" ${OUTLINE}/><path d="M36 36 L44 64 M50 32 L58 66 M62 36 L66 56" stroke="#e1bee7" stroke-width="4"/>`,
  mint: `<circle cx="50" cy="50" r="34" fill="#ffffff" ${OUTLINE}/><path d="M50 16 A34 34 0 0 1 84 50 L50 50 Z M50 84 A34 34 0 0 1 16 50 L50 50 Z" fill="url(#ag-teal)"/><circle cx="50" cy="50" r="34" fill="none" ${OUTLINE}/>`,
};

/** One symbol as an inline SVG (decorative: the cell carries the accessible name). */
export function symbolSvg(id: string): string {
  return `<svg viewBox="0 0 100 100" aria-hidden="true" focusable="false">${SYMBOL_ART[id] ?? ''}</svg>`;
}

/** The hidden sprite of shared gradients; put once in the page. */
export function artDefs(): string {
  return `<svg class="art-defs" width="0" height="0" aria-hidden="true" focusable="false"><defs>${DEFS}</defs></svg>`;
}
