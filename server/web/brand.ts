/**
 * Brand art generated as SVG from the site's settings, so no image is ever fetched from
 * outside: the logo, the app icon (manifest, favicon) and game tile art.
 */
import type { Site } from '../modules/sites';
import { generatedLogoWidth } from '#common/brand-logo';

export interface BrandColors {
  primary: string;
  accent: string;
  background: string;
}

const DEFAULT_COLORS: BrandColors = { primary: '#f5b301', accent: '#7c3aed', background: '#0f1020' };

export function brandColors(site: Site): BrandColors {
  const colors = (site.settings.brandColors ?? {}) as Partial<BrandColors>;
  return { ...DEFAULT_COLORS, ...colors };
}

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
}

/**
 * The brand mark in a 40-unit box: a disc filled with the primary → accent diagonal gradient and a
 * white five-pointed star. The logos draw it as SVG, the favicons (favicon.ts) rasterise it.
 */
export const BRAND_MARK = {
  box: 40,
  disc: { cx: 20, cy: 20, r: 17 },
  star: [
    [20, 8],
    [23.6, 15.4],
    [31.7, 16.6],
    [25.8, 22.3],
    [27.2, 30.4],
    [20, 26.6],
    [12.8, 30.4],
    [14.2, 22.3],
    [8.3, 16.6],
    [16.4, 15.4],
  ] as ReadonlyArray<readonly [number, number]>,
  starOpacity: 0.92,
};

/** The mark's SVG: its gradient's definition and its shapes. */
function markSvg({ primary, accent }: BrandColors): { defs: string; mark: string } {
  const { disc, star, starOpacity } = BRAND_MARK;
  const points = star.map(([x, y]) => `${x} ${y}`).join('L');
  return {
    defs: `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${primary}"/><stop offset="1" stop-color="${accent}"/></linearGradient></defs>`,
    mark: `<g><circle cx="${disc.cx}" cy="${disc.cy}" r="${disc.r}" fill="url(#g)"/><path d="M${points}z" fill="#fff" fill-opacity="${starOpacity}"/></g>`,
  };
}

/** The SVG favicon: the mark alone. */
export function markIconSvg(site: Site): string {
  const { defs, mark } = markSvg(brandColors(site));
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${BRAND_MARK.box} ${BRAND_MARK.box}">${defs}${mark}</svg>`;
}

export function logoSvg(site: Site, compact = false): string {
  const { defs, mark } = markSvg(brandColors(site));
  if (compact)
    return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40" role="img" aria-label="${escapeXml(site.name)}">${defs}${mark}</svg>`;
  const width = generatedLogoWidth(site.name);
  const textWidth = width - 52;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} 40" role="img" aria-label="${escapeXml(site.name)}">${defs}${mark}<text x="44" y="27" textLength="${textWidth}" lengthAdjust="spacingAndGlyphs" font-family="system-ui,Segoe UI,Roboto,sans-serif" font-size="19" font-weight="800" fill="#fff">${escapeXml(site.name)}</text></svg>`;
}

export function appIconSvg(site: Site): string {
  const { primary, accent, background } = brandColors(site);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${primary}"/><stop offset="1" stop-color="${accent}"/></linearGradient></defs><rect width="512" height="512" rx="96" fill="${background}"/><circle cx="256" cy="256" r="190" fill="url(#g)"/><text x="256" y="318" text-anchor="middle" font-family="system-ui,sans-serif" font-size="180" font-weight="800" fill="#fff">${escapeXml(initials(site.name))}</text></svg>`;
}
