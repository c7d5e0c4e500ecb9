/**
 * Payment methods of a site (spec §3 payment method info): their rules (provider, limits per
 * currency, countries, flows, requisites) from the `payment-methods` content collection's _all
 * entries, merged with each locale's name and description.
 */
import type { Locale } from '#common/locale';
import type {
  PaymentDirection,
  PaymentFlow,
  PaymentMethodType,
  PaymentMethodView,
  RequisiteField,
} from '#common/cashier-contract';
import { amountToMinor, minorToAmount } from '#common/money';
import type { ContentService } from '../content';

export interface PaymentMethod extends PaymentMethodView {
  minMinor: bigint;
  maxMinor: bigint;
  sort: number;
}

interface MethodEntry {
  sysname: string;
  type: PaymentMethodType;
  provider: string;
  sort?: number;
  directions: PaymentDirection[];
  /** Allowed player countries; empty allows every country. */
  countries?: string[];
  flows: PaymentFlow[];
  limits: Record<string, Partial<Record<PaymentDirection, [string, string]>>>;
  requisites?: Partial<Record<PaymentDirection, RequisiteField[]>>;
  icons: { default: string; dark?: string };
  name?: string;
  description?: string;
}

export interface MethodQuery {
  siteId: string;
  locale: Locale;
  direction: PaymentDirection;
  currency: string;
  country: string | null;
}

/** The methods a player may use now, in the content's order. */
export async function listPaymentMethods(content: ContentService, query: MethodQuery): Promise<PaymentMethod[]> {
  const { entries } = await content.list({
    siteId: query.siteId,
    collection: 'payment-methods',
    locale: query.locale,
    limit: 100,
  });
  const methods: PaymentMethod[] = [];
  for (const entry of entries) {
    const data = entry.data as unknown as MethodEntry;
    const limits = data.limits?.[query.currency]?.[query.direction];
    if (!limits || !data.directions?.includes(query.direction)) continue;
    if (data.countries?.length && !(query.country && data.countries.includes(query.country))) continue;
    const [minMinor, maxMinor] = limits.map(amountToMinor) as [bigint, bigint];
    methods.push({
      id: entry.id,
      sysname: data.sysname,
      name: data.name ?? data.sysname,
      description: data.description ?? '',
      type: data.type,
      provider: data.provider,
      icons: data.icons,
      currency: query.currency,
      min_amount: minorToAmount(minMinor),
      max_amount: minorToAmount(maxMinor),
      requisites: data.requisites?.[query.direction] ?? [],
      flows: data.flows,
      minMinor,
      maxMinor,
      sort: data.sort ?? 0,
    });
  }
  return methods.sort((a, b) => a.sort - b.sort);
}

/** The wire view: internal minor-unit bounds stay on the server. */
export function methodView(method: PaymentMethod): PaymentMethodView {
  const { minMinor: _min, maxMinor: _max, sort: _sort, ...view } = method;
  return view;
}
