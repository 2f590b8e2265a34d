import { UserPlusIcon } from '@heroicons/react/24/outline';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage, apiErrorStatus } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { useCreateCustomerMutation } from './pointsApi';
import { selectUser } from '../../app/session';
import { useGetSettingsQuery } from '../../app/tenantApi';
import { isPathPermitted, permissionsFor } from '../../lib/access';
import { paths } from '../../lib/paths';
import type { Customer } from '../../lib/types';
import { FormDialog } from '../../components/FormDialog';
import { TextField } from '../../components/FormField';
import { checkConsent, ConsentFields, useCurrentNotice } from '../privacy';

/** Whether the user may add customers: admins, and roles granted the customers screen. */
export function useCanEnroll(): boolean {
  const user = useAppSelector(selectUser);
  const { data: settings } = useGetSettingsQuery(undefined, { skip: !user || user.role === 'admin' });
  if (!user) return false;
  if (user.role === 'admin') return true;
  const permissions = permissionsFor(user, settings?.rolePermissions);
  return permissions ? isPathPermitted(permissions, paths.settingsCustomers) : false;
}

const blank = (value: string) => (value.trim() === '' ? null : value.trim());

/**
 * Adding, at the till, the customer a lookup did not find: the document searched is filled in,
 * and the new customer becomes the sale's customer.
 */
export function EnrollCustomer({ document, onEnrolled }: { document: string; onEnrolled: (customer: Customer) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [create, { isLoading }] = useCreateCustomerMutation();
  const [name, setName] = useState('');
  const [doc, setDoc] = useState(document);
  const [phone, setPhone] = useState('');
  const [email, setEmail] = useState('');
  const [birthdate, setBirthdate] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [purposes, setPurposes] = useState<string[]>([]);

  function start() {
    setName('');
    setDoc(document);
    setPhone('');
    setEmail('');
    setBirthdate('');
    setPurposes([]);
    setError(null);
    setOpen(true);
  }

  const { notice } = useCurrentNotice(!open);

  async function handleSubmit() {
    if (name.trim() === '' || doc.trim() === '') {
      setError(t('customers.errorNameAndIdRequired'));
      return;
    }
    const consent = checkConsent(notice, purposes);
    if (!consent.ok) {
      setError(t(consent.error));
      return;
    }
    setError(null);
    try {
      const created = await create({
        name: name.trim(),
        document: doc.trim(),
        email: blank(email),
        phone: blank(phone),
        address: null,
        birthdate: blank(birthdate),
        consent: consent.consent,
      }).unwrap();
      setOpen(false);
      onEnrolled(created);
    } catch (failure) {
      if (apiErrorStatus(failure) === 401) return;
      setError(apiErrorMessage(failure) ?? t('common.errorGeneric'));
    }
  }

  return (
    <>
      <button type="button" className="btn btn-secondary btn-sm enroll-button" onClick={start}>
        <UserPlusIcon aria-hidden="true" />
        {t('enroll.open')}
      </button>
      <FormDialog
        open={open}
        title={t('enroll.title')}
        onClose={() => setOpen(false)}
        onSubmit={() => void handleSubmit()}
        submitting={isLoading}
        error={error}
        submitLabel={t('enroll.submit')}
        submittingLabel={t('enroll.saving')}
        size="sm"
        formLabel={t('enroll.title')}
        formClassName="form-fields"
      >
        <p className="field-hint">{t('enroll.hint')}</p>
        <TextField label={t('customers.fields.name')} value={name} onChange={setName} required maxLength={200} autoComplete="off" />
        <TextField label={t('customers.fields.document')} value={doc} onChange={setDoc} required maxLength={26} autoComplete="off" />
        <TextField label={t('customers.fields.phone')} value={phone} onChange={setPhone} type="tel" maxLength={50} autoComplete="off" />
        <TextField label={t('customers.fields.email')} value={email} onChange={setEmail} type="email" maxLength={200} autoComplete="off" />
        <TextField label={t('customers.fields.birthdate')} value={birthdate} onChange={setBirthdate} type="date" />
        <ConsentFields notice={notice} value={purposes} onChange={setPurposes} />
      </FormDialog>
    </>
  );
}

