/** What every cashier use case is given, and the player's payment methods it checks requests against. */
import { ApiError } from '#common/errors';
import type { Locale } from '#common/locale';
import { validateField } from '#common/validators';
import { requireValid } from '#common/parameter-errors';
import type { Database } from '../../db/client';
import type { AccountService, UserRow } from '../account';
import type { BonusService } from '../bonuses';
import type { ContentService } from '../content';
import type { ResponsibleGamingService } from '../responsible-gaming';
import type { Site } from '../sites';
import type { Debts, WalletService } from '../wallet';
import type { PaymentProvider } from '../payments';
import { listPaymentMethods, type PaymentMethod } from './payment-methods';

export interface CashierDeps {
  db: Database;
  wallet: WalletService;
  accounts: AccountService;
  content: ContentService;
  responsibleGaming: () => ResponsibleGamingService;
  findProvider: (name: string) => PaymentProvider | undefined;
  /** Deposit offers grant their bonus with the deposit; a withdrawal the player confirmed forfeits active bonuses. */
  bonuses: Pick<BonusService, 'grantAndActivate' | 'programmeOf' | 'forfeitActive' | 'activeBonusIds'>;
  /** A credited deposit repays the player's debts first, and a withdrawal leaves only what is left after them (issue 14: a rollback's shortfall). */
  debts: Pick<Debts, 'clearDebts' | 'collectBeforeWithdrawal' | 'owed'>;
}

export interface PlayerRequest {
  site: Site;
  user: UserRow;
  locale: Locale;
  /** The player's site origin, for the provider's return and notification addresses. */
  origin: string;
}

export function requireProvider(deps: CashierDeps, name: string): PaymentProvider {
  const provider = deps.findProvider(name);
  if (!provider) throw new ApiError('BillingUnavailableException', 'The payment provider is not available');
  return provider;
}

export async function findMethod(
  deps: CashierDeps,
  request: PlayerRequest,
  direction: 'deposit' | 'withdrawal',
  sysname: string,
): Promise<PaymentMethod> {
  const methods = await listPaymentMethods(deps.content, {
    siteId: request.site.id,
    locale: request.locale,
    direction,
    currency: request.user.currency,
    country: request.user.countryCode,
  });
  const method = methods.find((candidate) => candidate.sysname === sysname);
  if (!method)
    throw new ApiError('InvalidParameterException', 'Invalid parameter: method', { field: 'method', errorType: 'wrongField' });
  return method;
}

export function checkRequisites(method: PaymentMethod, requisites: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const field of method.requisites) {
    const value = (requisites[field.name] ?? '').trim();
    if (!value && !field.isRequired) continue;
    requireValid(`requisites[${field.name}]`, validateField(field.validator as never, value, { isRequired: field.isRequired }));
    kept[field.name] = value;
  }
  return kept;
}

/** The payment methods a player may use in one direction. */
export function listMethods(deps: CashierDeps, request: PlayerRequest, direction: 'deposit' | 'withdrawal') {
  return listPaymentMethods(deps.content, {
    siteId: request.site.id,
    locale: request.locale,
    direction,
    currency: request.user.currency,
    country: request.user.countryCode,
  });
}
