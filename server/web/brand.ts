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

export function logoSvg(site: Site, compact = false): string {
  const { primary, accent } = brandColors(site);
  const mark = `<g><circle cx="20" cy="20" r="17" fill="url(#g)"/><path d="M20 8l3.6 7.4 8.1 1.2-5.9 5.7 1.4 8.1L20 26.6l-7.2 3.8 1.4-8.1-5.9-5.7 8.1-1.2z" fill="#fff" fill-opacity=".92"/></g>`;
  const defs = `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${primary}"/><stop offset="1" stop-color="${accent}"/></linearGradient></defs>`;
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
