import { normalizeDocument } from '../../../lib/document';
import type { TKey } from '../../../i18n/keys';
import type { Customer } from '../../../lib/types';
import type { CustomerInput } from './customersApi';
import { checkConsent, type PrivacyNotice } from '../../privacy';

/** The customer fields as typed. */
export interface CustomerFormValues {
  name: string;
  document: string;
  email: string;
  phone: string;
  address: string;
  birthdate: string;
}

export const EMPTY_CUSTOMER: CustomerFormValues = {
  name: '',
  document: '',
  email: '',
  phone: '',
  address: '',
  birthdate: '',
};

export function customerFormValues(customer: Customer): CustomerFormValues {
  return {
    name: customer.name,
    document: customer.document,
    email: customer.email ?? '',
    phone: customer.phone ?? '',
    address: customer.address ?? '',
    // An ISO date-time is cut to its date (docs/screens.md, "Forms").
    birthdate: customer.birthdate ? customer.birthdate.slice(0, 10) : '',
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type CustomerCheck = { ok: true; body: CustomerInput } | { ok: false; error: TKey };

/**
 * Validates the form (docs/screens.md, "Forms"): adding needs the name and the document; editing needs
 * the name (an emptied document keeps the stored one). Empty optional fields are sent as null.
 */
export function checkCustomer(values: CustomerFormValues, existing?: Customer): CustomerCheck {
  const name = values.name.trim();
  const document = normalizeDocument(values.document);
  if (existing) {
    if (!name) return { ok: false, error: 'customers.errorNameRequired' };
  } else if (!name || !document) {
    return { ok: false, error: 'customers.errorNameAndIdRequired' };
  }
  const email = values.email.trim();
  if (email && !EMAIL.test(email)) return { ok: false, error: 'customers.errorInvalidEmail' };
  const optional = (value: string) => (value.trim() === '' ? null : value.trim());
  return {
    ok: true,
    body: {
      name,
      document: document || (existing?.document ?? ''),
      email: optional(email),
      phone: optional(values.phone),
      address: optional(values.address),
      birthdate: optional(values.birthdate.slice(0, 10)),
    },
  };
}

/** A new customer: the fields as `checkCustomer` checks them, and the authorization to the notice in force. */
export function checkNewCustomer(values: CustomerFormValues & { purposes: string[] }, notice: PrivacyNotice | undefined): CustomerCheck {
  const fields = checkCustomer(values);
  if (!fields.ok) return fields;
  const consent = checkConsent(notice, values.purposes);
  if (!consent.ok) return consent;
  return { ok: true, body: { ...fields.body, consent: consent.consent } };
}
