import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/FormField';

export interface InvoiceReferenceFieldProps {
  /** The operation's own label. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
}

/** The sale's optional invoice reference (at most 100 characters), on the accredit and redeem forms. */
export function InvoiceReferenceField({ label, value, onChange, disabled }: InvoiceReferenceFieldProps) {
  const { t } = useTranslation();
  return (
    <TextField
      label={label}
      value={value}
      onChange={onChange}
      placeholder={t('accredit.invoiceReferencePlaceholder')}
      disabled={disabled}
      maxLength={100}
    />
  );
}
