import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Locale } from '../lib/format';

export type Theme = 'light' | 'dark';

export function isTheme(value: unknown): value is Theme {
  return value === 'light' || value === 'dark';
}

export interface PreferencesState {
  theme: Theme;
  locale: Locale;
}

export const initialPreferencesState: PreferencesState = { theme: 'light', locale: 'es' };

export const preferencesSlice = createSlice({
  name: 'preferences',
  initialState: initialPreferencesState,
  reducers: {
    themeToggled(state) {
      state.theme = state.theme === 'light' ? 'dark' : 'light';
    },
    themeChanged(state, action: PayloadAction<Theme>) {
      state.theme = action.payload;
    },
    localeChanged(state, action: PayloadAction<Locale>) {
      state.locale = action.payload;
    },
  },
  selectors: {
    selectTheme: (state) => state.theme,
    selectLocale: (state) => state.locale,
  },
});

export const { themeToggled, themeChanged, localeChanged } = preferencesSlice.actions;
export const { selectTheme, selectLocale } = preferencesSlice.selectors;
