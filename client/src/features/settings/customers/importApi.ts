import { api, toApiError, type ApiError } from '../../../app/api';
import type { SessionState } from '../../../app/session';
import { i18n } from '../../../i18n';
import type { ImportAnswer } from '../../../lib/types';

export type OnExisting = 'skip' | 'update';
export type ConsentChannel = '' | 'store' | 'web' | 'import';

export interface ImportArgs {
  file: Blob;
  dryRun: boolean;
  onExisting: OnExisting;
  /** The consent of the rows whose consent cell is empty ('' for none). */
  consentChannel: ConsentChannel;
  /** Called as the file goes up, with the share sent (0 to 1). */
  onProgress?: (share: number) => void;
}

/** The import's address with its options. */
export function importUrl({ dryRun, onExisting, consentChannel }: Omit<ImportArgs, 'file'>): string {
  const params = new URLSearchParams({ dryRun: String(dryRun), onExisting });
  if (consentChannel) params.set('consentChannel', consentChannel);
  return `${window.location.origin}/api/customers/import?${params.toString()}`;
}

/**
 * Sends the file with XMLHttpRequest, the one browser API that reports an upload's progress
 * (fetch does not); the answer and errors take the same shape as every other endpoint's.
 */
function send(args: ImportArgs, token: string | null): Promise<{ data: ImportAnswer } | { error: ApiError }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', importUrl(args));
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept-Language', i18n.language === 'en' ? 'en' : 'es');
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) args.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      let data: unknown = xhr.responseText;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON: the status text speaks for it.
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve({ data: data as ImportAnswer });
      else resolve({ error: toApiError({ status: xhr.status, data }) });
    };
    xhr.onerror = () => resolve({ error: { status: 'FETCH_ERROR' } });
    xhr.send(args.file);
  });
}

export const importApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Checks (dry run) or imports a file of customers; a real run changes the customers. */
    importCustomers: build.mutation<ImportAnswer, ImportArgs>({
      queryFn: (args, { getState }) => send(args, (getState() as { session: SessionState }).session.token),
      invalidatesTags: (result, _error, args) =>
        result && !args.dryRun
          ? [
              { type: 'Customer', id: 'LIST' },
              { type: 'Stats', id: 'DASHBOARD' },
              { type: 'Transaction', id: 'LIST' },
            ]
          : [],
    }),
  }),
});

export const { useImportCustomersMutation } = importApi;
