import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';
import type { TKey } from '../i18n/keys';

export type ToastKind = 'success' | 'error' | 'info';

/**
 * A toast holds either a translation key (translated when shown, so it follows the language) or a
 * message exactly as the server returned it.
 */
export type ToastContent =
  | { messageKey: TKey; params?: Record<string, string | number>; message?: undefined }
  | { message: string; messageKey?: undefined; params?: undefined };

export type Toast = ToastContent & { id: string; kind: ToastKind };

export interface ToastsState {
  items: Toast[];
}

const initialState: ToastsState = { items: [] };

export const toastsSlice = createSlice({
  name: 'toasts',
  initialState,
  reducers: {
    toastShown: {
      reducer(state, action: PayloadAction<Toast>) {
        state.items.push(action.payload);
      },
      prepare(kind: ToastKind, content: ToastContent) {
        return { payload: { ...content, kind, id: nanoid() } as Toast };
      },
    },
    toastDismissed(state, action: PayloadAction<string>) {
      state.items = state.items.filter((toast) => toast.id !== action.payload);
    },
  },
  selectors: {
    selectToasts: (state) => state.items,
  },
});

export const { toastShown, toastDismissed } = toastsSlice.actions;
export const { selectToasts } = toastsSlice.selectors;
