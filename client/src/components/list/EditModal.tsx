import { useTranslation } from 'react-i18next';
import { FormDialog, type FormDialogProps } from '../FormDialog';
import { useStaleError } from './useStaleError';

export interface EditModalProps extends Pick<FormDialogProps, 'open' | 'title' | 'onSubmit' | 'submitting' | 'error' | 'children'> {
  onCancel: () => void;
  /** Defaults to 'Update'. */
  submitLabel?: string;
}

/** The edit dialog of the list screens: fields, then Cancel and Update. */
export function EditModal({ open, title, onCancel, onSubmit, submitting = false, error, submitLabel, children }: EditModalProps) {
  const { t } = useTranslation();
  const stale = useStaleError(error);
  return (
    <FormDialog
      open={open}
      title={title}
      onClose={onCancel}
      onSubmit={() => {
        stale.onSubmit();
        onSubmit();
      }}
      submitting={submitting}
      error={stale.shown}
      submitLabel={submitLabel ?? t('common.update')}
      submittingLabel={t('common.updating')}
      onEdit={stale.onEdit}
    >
      <div className="form-fields">{children}</div>
    </FormDialog>
  );
}
