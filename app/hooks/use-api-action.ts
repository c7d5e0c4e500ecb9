/**
 * Runs a product API mutation from a component: busy state, the error message of the field the
 * server names, a toast on success, and a reload of the page data.
 */
import { useState } from 'react';
import { useRevalidator } from 'react-router';
import { isApiError } from '#common/errors';
import { DEFAULT_MESSAGES, validationMessage, type MessageKey } from '#common/validators';
import type { MethodName, ParamsInput, ResultOf } from '#common/contract';
import { browserApi } from '~/api/client';
import { useI18n } from '~/i18n';
import { configValue, useRootData } from '~/site-data';
import { useToasts } from '~/toasts/toast-provider';

export function useApiAction() {
  const { t, locale } = useI18n();
  const root = useRootData();
  const dictionary = configValue<Record<string, string>>(root?.config, 'forms-config.validationDict', {});
  const { show } = useToasts();
  const revalidator = useRevalidator();
  const [isBusy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});

  /** The message for a server error: the field's rule from the form dictionary, else the error type's text. */
  function messageOf(error: unknown): { field?: string; text: string } {
    if (!isApiError(error)) return { text: t('error.UnknownErrorException') };
    const field = typeof error.errorData?.field === 'string' ? error.errorData.field : undefined;
    const errorType = typeof error.errorData?.errorType === 'string' ? error.errorData.errorType : undefined;
    const params = Object.fromEntries(
      Object.entries(error.errorData ?? {}).filter(([, v]) => typeof v === 'string' || typeof v === 'number'),
    ) as Record<string, string | number>;
    const isKnownRule = errorType !== undefined && (errorType in dictionary || errorType in DEFAULT_MESSAGES);
    if (isKnownRule)
      return { field, text: validationMessage({ isValid: false, errorType: errorType as MessageKey, params }, dictionary) };
    return { field, text: codeTableMessage(error.errorData, field) ?? t(`error.${error.type}`) };
  }

  /** A field's code table (error_data.{field}: [CODE], e.g. bonus_id): its `{field}.error.{CODE}` text when one exists. */
  function codeTableMessage(errorData: Record<string, unknown> | undefined, field: string | undefined): string | undefined {
    const codes = field ? errorData?.[field] : undefined;
    const code = Array.isArray(codes) && typeof codes[0] === 'string' ? codes[0] : undefined;
    const key = `${field}.error.${code}`;
    const text = code ? t(key) : key;
    return text === key ? undefined : text;
  }

  async function run<Name extends MethodName>(
    name: Name,
    params: ParamsInput<Name>,
    options: { successKey?: string; reload?: boolean } = {},
  ): Promise<ResultOf<Name> | undefined> {
    setBusy(true);
    setErrors({});
    try {
      const result = await browserApi(locale).call<Name>(name, ...([params] as never));
      if (options.successKey) show(t(options.successKey), { tone: 'success' });
      if (options.reload !== false) void revalidator.revalidate();
      return result;
    } catch (error) {
      const { field, text } = messageOf(error);
      setErrors({ [field ?? '_form']: text });
      return undefined;
    } finally {
      setBusy(false);
    }
  }

  return { run, isBusy, errors, setErrors };
}
