/** The sites this installation serves, resolved by host. */
export { createSiteService, type Site, type SiteRow, type SiteService } from './service';
export { seedSite, type SiteSeed } from './seed';
// Pure helpers: a site's rules about a request, applied by the HTTP layer.
export { hostnameOf, isCountryBlocked } from './service';
// Demo trust: which sites are demos, the demo's published values, and every site's secrets by name.
export {
  createSiteSecrets,
  DEMO_OAUTH_CLIENT_SECRET,
  demoSecret,
  isDemoSite,
  isKycSandboxSite,
  isPspSandboxSite,
  isPublishedDemoValue,
  oauthSecretName,
  SANDBOX_PROVIDER,
  siteSecretVariable,
  type SiteSecretName,
  type SiteSecrets,
} from './demo-trust';
