import type { TKey } from '../../i18n/keys';
import type { ConsentInput, PrivacyNotice } from './privacyApi';

export type ConsentCheck = { ok: true; consent: ConsentInput } | { ok: false; error: TKey };

/**
 * The authorization an enrolment at a store sends: the notice in force and the purposes ticked.
 * Every required purpose must be ticked (Ley 1581 de 2012, art. 9: no enrolment without it).
 */
export function checkConsent(notice: PrivacyNotice | undefined, granted: readonly string[]): ConsentCheck {
  if (!notice) return { ok: false, error: 'privacy.consent.errorNoNotice' };
  const missing = notice.purposes.some((purpose) => purpose.required && !granted.includes(purpose.key));
  if (missing) return { ok: false, error: 'privacy.consent.errorRequired' };
  const known = notice.purposes.map((purpose) => purpose.key).filter((key) => granted.includes(key));
  return { ok: true, consent: { noticeVersion: notice.version, purposes: known, channel: 'store' } };
}

/** The path of the company's public notice page. */
export function publicNoticePath(prefix: string): string {
  return `/privacidad/${encodeURIComponent(prefix)}`;
}
