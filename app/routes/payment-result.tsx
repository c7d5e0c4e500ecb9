/**
 * Payment result screens (spec §2): cancel, fail, pending, success, mobile and new window. With a
 * transaction (the route's, ?id=, or on the flow screens the stored currentTransactionId) the
 * deposit is loaded and polled while it is new or pending; once final, the screen switches to the
 * success, fail or cancel screen its status calls for (the provider's redirect alone decides
 * nothing). Success refreshes the balances and follows a stored backUrl once (spec §3).
 */
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { Route } from './+types/payment-result';
import { paymentPageType } from '#common/system-pages';
import { parseRouteName } from '#common/locale';
import { BACK_URL_KEY, leaveByBackUrl } from '#common/back-url';
import { pageMeta } from '~/seo';
import { SystemPage } from '~/components/system-page';
import { PaymentSummary } from '~/components/payment-summary';
import { useCurrentRoute } from '~/route-info';
import { useI18n } from '~/i18n';
import { useBalances } from '~/balance';
import { useDepositStatus } from '~/hooks/use-deposit-status';
import { loaderApi } from '~/api/loader-api';
import { pageNotFound } from '~/api/errors';
import { isApiError } from '#common/errors';
import { cashierApi, loadMethodNames } from '~/cashier/cashier-api';
import { CURRENT_TRANSACTION_KEY, followedTransactionId, isFinalDepositStatus, resultPath } from '~/cashier/deposit-flow';

export const meta: Route.MetaFunction = (args) => {
  const leaf = args.matches[args.matches.length - 1];
  return pageMeta(args, `system.${paymentPageType(parseRouteName(leaf?.id ?? '').name)}.header`);
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const api = cashierApi(loaderApi(request, context));
  if ('transaction' in params && params.transaction !== undefined) await requireOwnDeposit(api, params.transaction, request);
  return { methodNames: await loadMethodNames(api) };
}

/**
 * A transaction in the address must be one of the player's deposits (issue 15: a bogus id answered
 * 200). The cashier answers AccessDeniedException for an unknown id and another player's alike:
 * both are not found here, like an id the contract refuses. Other answers (a visitor signed out, a
 * busy cashier) leave the screen to its own polling.
 */
async function requireOwnDeposit(api: ReturnType<typeof cashierApi>, id: string, request: Request): Promise<void> {
  try {
    await api.depositInfo(id);
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (error.type === 'AccessDeniedException' || error.type === 'InvalidParameterException') pageNotFound(request);
  }
}

export default function PaymentResult({ loaderData }: Route.ComponentProps) {
  const { t, localePath } = useI18n();
  const { name, params } = useCurrentRoute();
  const type = paymentPageType(name);
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const { refresh } = useBalances();
  const isFlowScreen = type === 'paymentMobile' || type === 'paymentNewWindow';

  // The stored id lives in the browser only: read after hydration.
  const [storedId, setStoredId] = useState<string | null>(null);
  useEffect(() => setStoredId(window.sessionStorage.getItem(CURRENT_TRANSACTION_KEY)), []);
  const id = followedTransactionId({ param: params.transaction, query: search.get('id'), stored: storedId, isFlowScreen });
  // The provider's redirect only says where the browser went; the deposit's own status decides.
  const { detail, isFailed } = useDepositStatus(id, { shouldPoll: true });
  const isFinal = detail !== null && isFinalDepositStatus(detail.status);

  // A deposit that is final moves this screen to its result screen, if it is not there already.
  useEffect(() => {
    if (!detail || !isFinalDepositStatus(detail.status)) return;
    window.sessionStorage.removeItem(CURRENT_TRANSACTION_KEY);
    // The provider's window of the new-window flow closes itself: the cashier window shows the result.
    if (type === 'paymentNewWindow' && window.opener && search.has('result')) window.close();
    const target = resultPath(detail.status, detail.id);
    if (target && window.location.pathname !== localePath(target)) void navigate(localePath(target), { replace: true });
  }, [detail, navigate, localePath, type, search]);

  // Success, once the deposit is credited (or when there is none to follow): fresh balances, then
  // the stored return address, read once.
  const hasFinished = useRef(false);
  const isCredited = type === 'paymentSuccess' && (id === undefined || isFailed || detail?.status === 'success');
  useEffect(() => {
    if (!isCredited || hasFinished.current) return;
    hasFinished.current = true;
    void refresh();
    if (window.localStorage.getItem(BACK_URL_KEY) !== null) {
      leaveByBackUrl(window.localStorage, localePath('/gamehall'), window.location, (href) =>
        window.history.replaceState(window.history.state, '', href),
      );
    }
  }, [isCredited, refresh, localePath]);

  const isWaiting = id !== undefined && !isFailed && !isFinal && type !== 'paymentPending';
  return (
    <div className="payment-result" data-payment-result={type} data-transaction={id ?? undefined}>
      <SystemPage type={type} detail={params.transaction} />
      {isWaiting && (
        <p className="payment-result__waiting" role="status" data-waiting>
          <span className="loader" aria-hidden="true" /> {t('cashier.result.waiting')}
        </p>
      )}
      {detail && <PaymentSummary detail={detail} methodName={loaderData.methodNames[detail.method]} />}
    </div>
  );
}
