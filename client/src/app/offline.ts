// The connection as the till sees it, and how many accreditations wait on this device to be sent
// (docs/operations.md, "Offline till"). The queue itself lives in IndexedDB (lib/offlineQueue.ts);
// this slice only holds what the shell shows: the offline banner and the logout warning.

import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface OfflineState {
  online: boolean;
  /** Accreditations of the signed-in company waiting to be sent. */
  pending: number;
  /** Of those, the ones the server refused on replay: a supervisor discards or retries them. */
  rejected: number;
}

export const initialOfflineState: OfflineState = {
  online: typeof navigator === 'undefined' ? true : navigator.onLine !== false,
  pending: 0,
  rejected: 0,
};

export const offlineSlice = createSlice({
  name: 'offline',
  initialState: initialOfflineState,
  reducers: {
    connectionChanged(state, action: PayloadAction<boolean>) {
      state.online = action.payload;
    },
    queueCounted(state, action: PayloadAction<{ pending: number; rejected: number }>) {
      state.pending = action.payload.pending;
      state.rejected = action.payload.rejected;
    },
  },
  selectors: {
    selectOnline: (state) => state.online,
    selectPendingCount: (state) => state.pending,
    selectRejectedCount: (state) => state.rejected,
  },
});

export const { connectionChanged, queueCounted } = offlineSlice.actions;
export const { selectOnline, selectPendingCount, selectRejectedCount } = offlineSlice.selectors;

const COPY_PREFIX = 'loyalty.offlineCopy.';

/** Keeps the last answer of a read the shell needs to open offline (the settings with the role permissions). */
export function saveOfflineCopy(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(COPY_PREFIX + key, JSON.stringify(value));
  } catch {
    // A full or refused storage only costs the offline start.
  }
}

/** The last answer kept by saveOfflineCopy, if any. */
export function readOfflineCopy<T>(key: string): T | undefined {
  try {
    const text = window.localStorage.getItem(COPY_PREFIX + key);
    return text ? (JSON.parse(text) as T) : undefined;
  } catch {
    return undefined;
  }
}

/** A failure with no answer at all: the device is offline or the server unreachable. */
export function isNetworkFailure(error: unknown): boolean {
  return Boolean(error && typeof error === 'object' && 'status' in error && (error as { status: unknown }).status === 'FETCH_ERROR');
}
