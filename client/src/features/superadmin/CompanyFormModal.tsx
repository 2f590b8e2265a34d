import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EditModal } from '../../components/list';
import { TextField } from '../../components/FormField';
import type { Company } from '../../lib/types';
import { sanitizePrefix, type CompanyDetails, type NewCompany } from './companiesApi';

type CompanyFormValues = NewCompany;

function initialValues(company: Company | null): CompanyFormValues {
  return {
    name: company?.name ?? '',
    prefix: company?.prefix ?? '',
    taxId: company?.taxId ?? '',
    logoUrl: company?.logoUrl ?? '',
    businessName: company?.businessName ?? '',
    address: company?.address ?? '',
    phone: company?.phone ?? '',
    adminPassword: '',
  };
}

export interface CompanyFormModalProps {
  /** The company being edited; null to create one. */
  company: Company | null;
  submitting: boolean;
  error: string | null;
  onCancel: () => void;
  /** Called with trimmed values once the required fields are filled. */
  onCreate: (values: NewCompany) => void;
  onUpdate: (id: number, values: CompanyDetails) => void;
  onInvalid: (message: string) => void;
}

/** Create form (prefix and admin password) or edit form (prefix read-only) of a company. */
export function CompanyFormModal({ company, submitting, error, onCancel, onCreate, onUpdate, onInvalid }: CompanyFormModalProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<CompanyFormValues>(() => initialValues(company));
  const isEdit = company !== null;

  function set<K extends keyof CompanyFormValues>(key: K) {
    return (value: string) => setValues((current) => ({ ...current, [key]: value }));
  }

  /** A field's label, name, value and change, by its key. */
  function bind<K extends keyof CompanyFormValues>(key: K) {
    return { label: t(`superAdmin.fields.${key}`), name: key, value: values[key], onChange: set(key) };
  }

  function submit() {
    const details: CompanyDetails = {
      name: values.name.trim(),
      taxId: values.taxId.trim(),
      logoUrl: values.logoUrl.trim(),
      businessName: values.businessName.trim(),
      address: values.address.trim(),
      phone: values.phone.trim(),
    };
    if (isEdit) {
      if (!details.name || !details.taxId) {
        onInvalid(t('superAdmin.errorNameAndTaxIdRequired'));
        return;
      }
      onUpdate(company.id, details);
      return;
    }
    if (!details.name || !values.prefix || !details.taxId || !values.adminPassword) {
      onInvalid(t('users.errorAllFieldsRequired'));
      return;
    }
    onCreate({ ...details, prefix: values.prefix, adminPassword: values.adminPassword });
  }

  return (
    <EditModal
      open
      title={isEdit ? t('superAdmin.editTitle') : t('superAdmin.createTitle')}
      onCancel={onCancel}
      onSubmit={submit}
      submitting={submitting}
      error={error}
      submitLabel={isEdit ? t('common.update') : t('superAdmin.create')}
    >
      <div className="form-grid">
        <TextField {...bind('name')} required maxLength={200} />
        <TextField
          {...bind('prefix')}
          onChange={(value) => set('prefix')(sanitizePrefix(value))}
          required={!isEdit}
          readOnly={isEdit}
          disabled={isEdit}
          maxLength={30}
          autoCapitalize="none"
          spellCheck={false}
          hint={isEdit ? t('superAdmin.prefixReadOnly') : t('superAdmin.prefixHint')}
        />
        <TextField {...bind('taxId')} required maxLength={50} />
        <TextField {...bind('businessName')} maxLength={200} />
        <TextField {...bind('address')} maxLength={200} />
        <TextField {...bind('phone')} type="tel" maxLength={50} />
        <TextField {...bind('logoUrl')} type="url" className="form-grid-wide" maxLength={500} />
        {isEdit ? null : <TextField {...bind('adminPassword')} type="password" autoComplete="new-password" required />}
      </div>
    </EditModal>
  );
}
