import type { Page } from '@playwright/test';
import { exactly, type Locale } from '../i18n';
import { ConfirmDialog, FormDialog, PagedListPanel } from './list';
import { Screen } from './screen';

/** /superadmin: the company list with create, edit, impersonate and delete. */
export class SuperAdminPage extends Screen {
  readonly list: PagedListPanel;

  constructor(page: Page, locale: Locale = 'es') {
    super(page, '/superadmin', locale);
    this.list = new PagedListPanel(page, this.t('superAdmin.listTitle'), locale);
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

type CompanyField = 'name' | 'prefix' | 'taxId' | 'businessName' | 'address' | 'phone' | 'logoUrl' | 'adminPassword';

export class CompanyDialog extends FormDialog {
  /** A field of the company form by its key (its label is the `superAdmin.fields` text). */
  companyField(field: CompanyField) {
    const label = this.t(`superAdmin.fields.${field}`);
    // The name from the start: in English "Name" is also part of "Business name".
    return this.field(field === 'name' ? new RegExp(`^${label}\\b`) : label);
  }

  createButton() {
    return this.button(this.t('superAdmin.create'));
  }
}
