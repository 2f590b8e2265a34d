import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { selectUser } from '../../app/session';
import { publicNoticePath } from './consent';
import { useGetCurrentNoticeQuery, type NoticePurpose, type PrivacyNotice } from './privacyApi';

/**
 * The notice in force, asked again each time a form opens (an admin may have published a new
 * one); nothing while `skip`.
 */
export function useCurrentNotice(skip = false): { notice: PrivacyNotice | undefined; error: string | null; isLoading: boolean } {
  const query = useGetCurrentNoticeQuery(undefined, { refetchOnMountOrArgChange: true, skip });
  return {
    notice: query.data,
    error: query.isError ? (apiErrorMessage(query.error) ?? 'error') : null,
    isLoading: query.isLoading,
  };
}

export interface ConsentFieldsProps {
  notice: PrivacyNotice | undefined;
  /** The purposes ticked. */
  value: readonly string[];
  onChange: (purposes: string[]) => void;
}

/**
 * The privacy notice in force at an enrolment: its version, the full text to read to the customer
 * or let them read (folded), a link to the public page, and one box per purpose, the required one
 * marked (docs/privacy.md).
 */
export function ConsentFields({ notice, value, onChange }: ConsentFieldsProps) {
  const { t } = useTranslation();
  const prefix = useAppSelector(selectUser)?.company?.prefix;
  if (!notice) {
    return (
      <p className="field-hint" role="status">
        {t('privacy.consent.loading')}
      </p>
    );
  }
  const toggle = (key: string, checked: boolean) =>
    onChange(checked ? [...value.filter((k) => k !== key), key] : value.filter((k) => k !== key));
  return (
    <fieldset className="consent-fields">
      <legend>{t('privacy.consent.legend', { version: notice.version })}</legend>
      <p className="field-hint">{t('privacy.consent.intro')}</p>
      <details className="consent-notice">
        <summary>{t('privacy.consent.readNotice')}</summary>
        <div className="privacy-notice-body">{notice.body}</div>
      </details>
      {prefix ? (
        <p className="field-hint">
          <a href={publicNoticePath(prefix)} target="_blank" rel="noreferrer">
            {t('privacy.consent.publicLink')}
          </a>
        </p>
      ) : null}
      {notice.purposes.map((purpose) => (
        <PurposeBox
          key={purpose.key}
          purpose={purpose}
          checked={value.includes(purpose.key)}
          onChange={(checked) => toggle(purpose.key, checked)}
        />
      ))}
    </fieldset>
  );
}

/** One purpose's box; its label is the purpose's description, marked required or optional. */
function PurposeBox({ purpose, checked, onChange }: { purpose: NoticePurpose; checked: boolean; onChange: (checked: boolean) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const kind = purpose.required ? t('privacy.consent.required') : t('privacy.consent.optional');
  return (
    <div className="field field-checkbox consent-purpose">
      <div className="checkbox-row">
        <input
          id={id}
          name={`consent-${purpose.key}`}
          type="checkbox"
          className="checkbox"
          checked={checked}
          aria-required={purpose.required || undefined}
          onChange={(event) => onChange(event.target.checked)}
        />
        <label htmlFor={id} className="checkbox-label">
          {t('privacy.consent.purposeLabel', { description: purpose.description, kind })}
        </label>
      </div>
    </div>
  );
}
