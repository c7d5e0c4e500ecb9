/**
 * Follows one deposit (cashier.getdepositinfo): loads it, and while asked to, polls as long as
 * its status is new or pending. An error answer (another player's id, an unknown one) stops the
 * polling; a network failure is retried.
 */
import { useEffect, useState } from 'react';
import type { DepositDetail } from '#common/cashier-contract';
import { isApiError } from '#common/errors';
import { browserApi } from '~/api/client';
import { cashierApi } from '~/cashier/cashier-api';
import { isFinalDepositStatus, pollDelayMs } from '~/cashier/deposit-flow';
import { useI18n } from '~/i18n';

export function useDepositStatus(
  id: string | undefined,
  options: { shouldPoll: boolean },
): { detail: DepositDetail | null; isFailed: boolean } {
  const { locale } = useI18n();
  const [detail, setDetail] = useState<DepositDetail | null>(null);
  const [isFailed, setFailed] = useState(false);
  const { shouldPoll } = options;

  useEffect(() => {
    if (!id) return;
    let isActive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const api = cashierApi(browserApi(locale));
    const load = async (attempt: number) => {
      try {
        const next = await api.depositInfo(id);
        if (!isActive) return;
        setDetail(next);
        if (shouldPoll && !isFinalDepositStatus(next.status))
          timer = setTimeout(() => void load(attempt + 1), pollDelayMs(attempt));
      } catch (error) {
        if (!isActive) return;
        if (isApiError(error)) return setFailed(true);
        timer = setTimeout(() => void load(attempt + 1), pollDelayMs(attempt));
      }
    };
    void load(0);
    return () => {
      isActive = false;
      clearTimeout(timer);
    };
  }, [id, locale, shouldPoll]);

  return { detail, isFailed };
}
