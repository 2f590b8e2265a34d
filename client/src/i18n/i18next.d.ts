import 'i18next';
import type es from './es.json';

// Spanish is the reference language: t('...') only accepts keys that exist in es.json, and the
// parity test keeps en.json in step.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof es };
  }
}
