// @vitest-environment node
import { describe, expect, it } from 'vitest';
import en from './en.json';
import es from './es.json';
import { flatten, type Tree } from '../test/texts';

const esKeys = flatten(es as Tree);
const enKeys = flatten(en as Tree);

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

/** Keys the product relies on: validation and error messages, empty lists, success toasts (docs/screens.md). */
const NAMED_KEYS = [
  'login.error',
  'common.errorGeneric',
  'dashboard.errorEnterId',
  'dashboard.errorCustomerNotFound',
  'dashboard.errorInvalidInvoiceAmount',
  'redeem.errorInvalidPoints',
  'redeem.errorNotEnoughPoints',
  'redeem.errorGeneric',
  'redeem.noProductsAvailable',
  'redeem.noProductsMatchSearch',
  'customers.errorNameAndIdRequired',
  'customers.successDeleted',
  'users.errorAllFieldsRequired',
  'users.errorDeleteSelf',
  'users.successAdded',
  'users.successUpdated',
  'users.successDeleted',
  'pos.errorNameRequired',
  'pos.successAdded',
  'pos.successUpdated',
  'pos.successDeleted',
  'products.errorRequired',
  'products.successAdded',
  'products.successUpdated',
  'products.successDeleted',
  'categories.successAdded',
  'categories.successUpdated',
  'categories.successDeleted',
  'superAdmin.errorCreatingCompany',
  'superAdmin.successCompanyCreated',
  'superAdmin.successUpdated',
  'settings.success',
  'settings.maintenance.runExpirationError',
  'settings.maintenance.runExpirationSuccess',
  'reports.noTransactions',
  'reports.noResults',
  'reports.void.success',
  'reports.void.error',
  'accessDenied.title',
  'accessDenied.noPermissions',
];

describe('translations', () => {
  it('Spanish and English hold exactly the same keys', () => {
    const onlyEs = [...esKeys.keys()].filter((key) => !enKeys.has(key));
    const onlyEn = [...enKeys.keys()].filter((key) => !esKeys.has(key));
    expect({ onlyEs, onlyEn }).toEqual({ onlyEs: [], onlyEn: [] });
  });

  it('every key named in the spec exists', () => {
    const missing = NAMED_KEYS.filter((key) => !esKeys.has(key) || !enKeys.has(key));
    expect(missing).toEqual([]);
  });

  it('no translation is empty', () => {
    const empty = [...esKeys, ...enKeys].filter(([, value]) => value.trim() === '').map(([key]) => key);
    expect(empty).toEqual([]);
  });

  it('both languages use the same interpolation variables', () => {
    const mismatched = [...esKeys.keys()].filter(
      (key) => enKeys.has(key) && placeholders(esKeys.get(key)!).join() !== placeholders(enKeys.get(key)!).join(),
    );
    expect(mismatched).toEqual([]);
  });

  it('carries the texts the spec quotes', () => {
    expect(esKeys.get('login.error')).toBe('Usuario o contraseña incorrectos');
    expect(esKeys.get('accessDenied.title')).toBe('Acceso Denegado');
    expect(esKeys.get('settings.maintenance.running')).toBe('Ejecutando...');
    expect(enKeys.get('dashboard.errorEnterId')).toBe('Please enter a document number.');
    expect(enKeys.get('superAdmin.errorCreatingCompany')).toBe('Error creating company.');
    expect(enKeys.get('superAdmin.noCompanies')).toBe('No companies have been created.');
    expect(enKeys.get('superAdmin.noResults')).toBe('No companies found matching the search term.');
    expect(enKeys.get('common.errorNotInCompany')).toBe('User not in a company');
    expect(enKeys.get('common.errorNotLoggedIn')).toBe('Not logged in');
    expect(esKeys.get('language.es')).toBe('Español');
    expect(esKeys.get('language.en')).toBe('English');
  });
});
