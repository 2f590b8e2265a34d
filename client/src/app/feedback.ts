import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage, apiErrorStatus } from './api';
import { useAppDispatch } from './hooks';
import { toastShown } from './toasts';
import type { TKey } from '../i18n/keys';

export interface Feedback {
  /** A success toast (docs/screens.md, "Messages"). */
  success: (messageKey: TKey, params?: Record<string, string | number>) => void;
  /** An error toast with the server's message, or the generic one. */
  failure: (error: unknown) => void;
  /**
   * The text for a failed save shown under a form: `conflictKey` for a 409 when given (a
   * duplicate), else the server's message, else the generic error.
   */
  errorText: (error: unknown, conflictKey?: TKey) => string;
}

/** Toasts and error texts of the settings screens. */
export function useFeedback(): Feedback {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  return useMemo(
    () => ({
      success: (messageKey, params) => {
        dispatch(toastShown('success', params ? { messageKey, params } : { messageKey }));
      },
      failure: (error) => {
        const message = apiErrorMessage(error);
        dispatch(toastShown('error', message ? { message } : { messageKey: 'common.errorGeneric' }));
      },
      errorText: (error, conflictKey) => {
        if (conflictKey && apiErrorStatus(error) === 409) return t(conflictKey);
        return apiErrorMessage(error) ?? t('common.errorGeneric');
      },
    }),
    [t, dispatch],
  );
}
