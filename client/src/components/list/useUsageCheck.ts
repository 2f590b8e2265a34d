import { useTranslation } from 'react-i18next';

/** Ask for the usage afresh each time a delete is confirmed: it may have changed meanwhile. */
export const USAGE_QUERY_OPTIONS = { refetchOnMountOrArgChange: true } as const;

/** The part of an RTK Query result the delete confirmation needs. */
export interface UsageResult<U> {
  data?: U;
  isFetching: boolean;
  isError: boolean;
}

export interface UsageCheck {
  /** The look-up is still running: the Delete button waits. */
  checking: boolean;
  /** Related records exist: the record will only be made inactive. */
  soft: boolean;
  /** Replaces the soft/hard text when the look-up failed. */
  message?: string;
}

/**
 * Turns a usage look-up (GET /api/<kind>/{id}/usage) into the delete confirmation's soft or hard
 * text (docs/decisions.md, "Deleting"). If the look-up fails the server still decides, and the text says so.
 */
export function useUsageCheck<U>(result: UsageResult<U>, hasRelated: (usage: U) => boolean): UsageCheck {
  const { t } = useTranslation();
  if (result.isFetching) return { checking: true, soft: false };
  if (result.isError || !result.data) {
    return { checking: false, soft: false, message: t('settings.deleteUsageUnknown') };
  }
  return { checking: false, soft: hasRelated(result.data) };
}
