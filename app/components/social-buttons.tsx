/**
 * Social sign-in buttons of the auth form (spec §1): one per provider of the auth
 * configuration's social block, shown when the configured authTypes include social. Signing up
 * asks the provider with type_auth=register, signing in with type_auth=login.
 */
import { SOCIAL_POPUP_SIZE } from '#common/social-sign-in';
import { useI18n } from '~/i18n';
import { configValue, useRootData } from '~/site-data';
import { openSocialPopup } from '~/hooks/use-social-sign-in';

interface ProviderConfig {
  name?: string;
  isEnabled?: boolean;
}

export function SocialButtons({
  mode,
  returnTo,
}: {
  mode: 'sign_in' | 'sign_up';
  /** Where the sign-in popup was asked to return (redirectUrl, a game's #real): the social sign-in lands there too. */
  returnTo?: string;
}) {
  const { t } = useI18n();
  const root = useRootData();
  const authTypes = configValue<string[]>(root?.config, 'auth-config.authTypes', []);
  const providers = Object.entries(
    configValue<Record<string, ProviderConfig>>(root?.config, 'auth-config.social.providers', {}),
  ).filter(([, provider]) => provider.isEnabled !== false);
  const size = configValue(root?.config, 'auth-config.social.popup', SOCIAL_POPUP_SIZE);
  if (!authTypes.includes('social') || providers.length === 0) return null;
  return (
    <div className="social-buttons" data-social-buttons>
      <p className="social-buttons__title">{t('auth.social.title')}</p>
      {providers.map(([service, provider]) => (
        <button
          key={service}
          type="button"
          className="button button--ghost button--wide"
          data-service={service}
          onClick={() => openSocialPopup(service, mode === 'sign_up' ? 'register' : 'login', size, returnTo)}
        >
          {t('auth.social.with', { name: provider.name ?? service })}
        </button>
      ))}
    </div>
  );
}
