import type { Page } from '@playwright/test';
import { exactly, translator, type Locale, type TKey } from '../i18n';
import { ConfirmDialog, FormDialog, PagedListPanel } from './list';

/** /superadmin: the company list with create, edit, impersonate and delete. */
export class SuperAdminPage {
  readonly t: (key: TKey, params?: Record<string, string | number>) => string;
  readonly list: PagedListPanel;

  constructor(
    readonly page: Page,
    readonly locale: Locale = 'es',
  ) {
    this.t = translator(locale);
    this.list = new PagedListPanel(page, this.t('superAdmin.listTitle'), locale);
  }

  async goto(): Promise<void> {
    await this.page.goto('/superadmin');
  }

  heading() {
    return this.page.getByRole('heading', { level: 1, name: exactly(this.t('superAdmin.title')) });
  }

  createButton() {
    return this.page.getByRole('button', { name: exactly(this.t('superAdmin.createCompany')) });
  }

  createDialog() {
    return new CompanyDialog(this.page, this.t('superAdmin.createTitle'), this.locale);
  }

  editDialog() {
    return new CompanyDialog(this.page, this.t('superAdmin.editTitle'), this.locale);
  }

  deleteDialog() {
    return new ConfirmDialog(this.page, this.t('superAdmin.deleteTitle'), this.locale);
  }

  row(name: string) {
    return this.list.row(name);
  }

  impersonateButton(name: string) {
    return this.row(name).getByRole('button', { name: this.t('superAdmin.impersonate') });
  }

  /** Narrows the list to one company by searching its name. */
  async find(name: string): Promise<void> {
    await this.list.search().fill(name);
  }
}

export class CompanyDialog extends FormDialog {
  private readonly tr: (key: TKey, params?: Record<string, string | number>) => string;

  constructor(page: Page, title: string, locale: Locale = 'es') {
    super(page, title, locale);
    this.tr = translator(locale);
  }

  name() {
    // From the start: in English "Name" is also part of "Business name".
    return this.field(new RegExp(`^${this.tr('superAdmin.fields.name')}\\b`));
  }

  prefix() {
    return this.field(this.tr('superAdmin.fields.prefix'));
  }

  taxId() {
    return this.field(this.tr('superAdmin.fields.taxId'));
  }

  businessName() {
    return this.field(this.tr('superAdmin.fields.businessName'));
  }

  address() {
    return this.field(this.tr('superAdmin.fields.address'));
  }

  phone() {
    return this.field(this.tr('superAdmin.fields.phone'));
  }

  logoUrl() {
    return this.field(this.tr('superAdmin.fields.logoUrl'));
  }

  adminPassword() {
    return this.field(this.tr('superAdmin.fields.adminPassword'));
  }

  createButton() {
    return this.button(this.tr('superAdmin.create'));
  }
}
