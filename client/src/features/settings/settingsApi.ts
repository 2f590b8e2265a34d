import { api } from '../../app/api';
import type { Settings } from '../../lib/types';

/** POST /api/settings takes any subset of the settings and answers the saved settings. */
export type SettingsUpdate = Partial<Omit<Settings, 'timeZone'>>;

export const settingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    saveSettings: build.mutation<Settings, SettingsUpdate>({
      query: (body) => ({ url: '/settings', method: 'POST', body }),
      invalidatesTags: [{ type: 'Settings', id: 'CURRENT' }],
    }),
    /** Runs point expiration now (admin; irreversible). Balances and the ledger change. */
    runPointExpiration: build.mutation<{ message: string }, void>({
      query: () => ({ url: '/tasks/expire-points', method: 'POST' }),
      invalidatesTags: [
        { type: 'Customer', id: 'LIST' },
        { type: 'Transaction', id: 'LIST' },
        { type: 'Stats', id: 'DASHBOARD' },
      ],
    }),
  }),
});

export const { useSaveSettingsMutation, useRunPointExpirationMutation } = settingsApi;
