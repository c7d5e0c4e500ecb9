/**
 * The size of the logos the server draws (server/web/brand.ts), so the site can give their <img>
 * a width and height before the picture arrives (issue 12: unsized images shift the page).
 */
export const GENERATED_LOGO = '/brand/logo.svg';
export const GENERATED_LOGO_MOBILE = '/brand/logo-mobile.svg';
export const GENERATED_LOGO_HEIGHT = 40;

/** The wide logo's width: the mark, then the site's name at a fixed advance per letter. */
export function generatedLogoWidth(siteName: string): number {
  return 52 + Math.ceil(siteName.length * 12.5);
}

/**
 * Width and height attributes for a logo shown `height` pixels high: the generated logos' own
 * proportions; a picture the site configured instead keeps only its height (its width is unknown).
 */
export function logoSize(src: string, siteName: string, height: number): { width?: number; height: number } {
  if (src === GENERATED_LOGO_MOBILE) return { width: height, height };
  if (src === GENERATED_LOGO)
    return { width: Math.round((generatedLogoWidth(siteName) * height) / GENERATED_LOGO_HEIGHT), height };
  return { height };
}
