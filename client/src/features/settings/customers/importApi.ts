import { api } from '../../../app/api';
import { uploadWithProgress } from '../../../app/upload';
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

export const importApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Checks (dry run) or imports a file of customers; a real run changes the customers. */
    importCustomers: build.mutation<ImportAnswer, ImportArgs>({
      queryFn: (args, { getState }) =>
        uploadWithProgress<ImportAnswer>({
          url: importUrl(args),
          body: args.file,
          token: (getState() as { session: SessionState }).session.token,
          language: i18n.language === 'en' ? 'en' : 'es',
          onProgress: args.onProgress,
        }),
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
