// Business constants (docs/screens.md: "Lists" and "Messages").

export const TOAST_DURATION_MS = 5000;
export const TOAST_FADE_MS = 300;

export const LIST_PAGE_SIZES = [10, 25, 50] as const;
export const LIST_DEFAULT_PAGE_SIZE = 10;

export const COMPANY_PAGE_SIZES = [5, 10, 25] as const;
export const COMPANY_DEFAULT_PAGE_SIZE = 5;

export const CURRENCY = 'COP';

/** How long the settings screens show 'saved' (3 s) and the point-expiration result (5 s). */
export const SETTINGS_SAVED_MESSAGE_MS = 3000;
export const EXPIRATION_MESSAGE_MS = 5000;
