/** The sites this installation serves, resolved by host. */
export { createSiteService, type Site, type SiteRow, type SiteService } from './service';
export { seedSite, type SiteSeed } from './seed';
// Pure helpers: a site's rules about a request, applied by the HTTP layer.
export { hostnameOf, isCountryBlocked } from './service';
