/** Banners (spec §3, §7 banners.get): the site's banner content, live ones only, by position. */
export { createBannerService, type BannerService, type BannerServiceDeps } from './service';
export { bannersMethods } from './methods';
