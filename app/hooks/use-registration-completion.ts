/**
 * Spec §2: a registration-completion popup of type socialRegistration opens while the player is
 * signed in but registration is not complete (a first social sign-in). It cannot be closed; it
 * goes away when auth.completeRegistration succeeds or the player signs out.
 */
import { useEffect } from 'react';
import { isAuthenticated } from '#common/api-contract';
import { useDialogs } from '~/dialogs/dialog-context';
import { useRootData } from '~/site-data';

export const SOCIAL_REGISTRATION_DIALOG = 'socialRegistration';

export function useRegistrationCompletion(): void {
  const account = useRootData()?.account;
  const { open, close } = useDialogs();
  const isIncomplete = isAuthenticated(account) && account?.is_registration_completed === false;
  useEffect(() => {
    if (!isIncomplete) return;
    const { id } = open(SOCIAL_REGISTRATION_DIALOG, { preventClose: true });
    return () => close(id, undefined, { force: true });
  }, [isIncomplete, open, close]);
}
