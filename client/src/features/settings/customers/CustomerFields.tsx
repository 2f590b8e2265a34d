import { useTranslation } from 'react-i18next';
import { DocumentField } from '../../../components/DocumentField';
import { TextField } from '../../../components/FormField';
import type { CustomerFormValues } from './customerForm';

export interface CustomerFieldsProps {
  values: CustomerFormValues;
  onChange: (values: CustomerFormValues) => void;
  /** Editing: the document is optional (an empty one keeps the stored document). */
  editing?: boolean;
}

/** The customer's fields, shared by the add form and the edit modal. */
export function CustomerFields({ values, onChange, editing = false }: CustomerFieldsProps) {
  const { t } = useTranslation();
  const set = (key: keyof CustomerFormValues) => (value: string) => onChange({ ...values, [key]: value });
  return (
    <>
      <TextField label={t('customers.fields.name')} name="name" value={values.name} onChange={set('name')} required maxLength={200} />
      <DocumentField
        label={t('customers.fields.document')}
        name="document"
        value={values.document}
        onChange={set('document')}
        required={!editing}
        maxLength={50}
      />
      <TextField label={t('customers.fields.email')} name="email" type="email" value={values.email} onChange={set('email')} maxLength={200} />
      <TextField label={t('customers.fields.phone')} name="phone" type="tel" value={values.phone} onChange={set('phone')} maxLength={50} />
      <TextField label={t('customers.fields.address')} name="address" value={values.address} onChange={set('address')} maxLength={200} />
      <TextField
        label={t('customers.fields.birthdate')}
        name="birthdate"
        type="date"
        value={values.birthdate}
        onChange={set('birthdate')}
      />
    </>
  );
}
