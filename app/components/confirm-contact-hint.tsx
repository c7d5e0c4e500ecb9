/**
 * The confirm-contact hint (spec §4) under the header: asks a new player to confirm the contact
 * they signed up with; sending the code sets confirm_sent_{userId} so the hint goes away.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { isAuthenticated } from '#common/api-contract';
import { browserApi } from '~/api/client';
import { useI18n } from '~/i18n';
import { useRootData } from '~/site-data';
import { confirmSentKey, shouldShowConfirmHint } from '~/hints';

export function ConfirmContactHint() {
  const root = useRootData();
  const { t, locale, localePath } = useI18n();
  const navigate = useNavigate();
  const account = root?.account;
  const [isVisible, setVisible] = useState(false);

  useEffect(() => {
    if (!account || !isAuthenticated(account)) return setVisible(false);
    const isWithinWindow = shouldShowConfirmHint({
      regTime: account.reg_time,
      nowMs: Date.now(),
      isLoginConfirmed: false,
      isConfirmSent: localStorage.getItem(confirmSentKey(account.uid)) !== null,
    });
    if (!isWithinWindow) return setVisible(false);
    browserApi(locale)
      .call('account.getprofileinfo', { fields: 'contacts' })
      .then((profile) =>
        setVisible(profile.contacts.some((contact) => contact.contact === account.login && !contact.is_confirmed)),
      )
      .catch(() => setVisible(false));
  }, [account, locale]);

  if (!isVisible || !account) return null;
  async function send() {
    if (!account) return;
    await browserApi(locale)
      .call('account.sendconfirmationtocontact', { contact: account.login })
      .catch(() => undefined);
    localStorage.setItem(confirmSentKey(account.uid), '1');
    setVisible(false);
    void navigate(localePath('/profile/settings'));
  }
  return (
    <div className="hint-bar" role="status" data-hint="confirm-contact">
      <span>{t('hint.confirm', { contact: account.login })}</span>
      <button type="button" className="button button--primary" onClick={() => void send()}>
        {t('hint.confirm.button')}
      </button>
    </div>
  );
}
