import type { Page } from '@playwright/test';
import { exactly, type Locale } from '../i18n';
import { Screen } from './screen';

/** /settings/api-keys: the keys a point of sale's system calls the POS API with. */
export class ApiKeysScreen extends Screen {
  constructor(page: Page, locale: Locale = 'es') {
    super(page, '/settings/api-keys', locale);
  }

  heading() {
    return this.page.getByRole('heading', { level: 1, name: exactly(this.t('apiKeys.title')) });
  }

  form() {
    return this.page.getByRole('region', { name: exactly(this.t('apiKeys.createTitle')) });
  }

  list() {
    return this.page.getByRole('region', { name: exactly(this.t('apiKeys.listTitle')) });
  }

  row(name: string) {
    return this.list().getByRole('row', { name: new RegExp(`^${name}\\b`) });
  }

  /** Makes a key for the point of sale named `pos`; answers the key the dialog shows once. */
  async create(name: string, pos: string): Promise<string> {
    const form = this.form();
    await form.getByLabel(this.t('apiKeys.fields.name')).fill(name);
    await form.getByLabel(this.t('apiKeys.fields.pos')).selectOption({ label: pos });
    await form.getByRole('button', { name: exactly(this.t('apiKeys.create')) }).click();
    return this.newKeyDialog().getByLabel(exactly(this.t('apiKeys.fields.key'))).inputValue();
  }

  newKeyDialog() {
    return this.page.getByRole('dialog', { name: exactly(this.t('apiKeys.madeTitle')) });
  }

  revokeButton(name: string) {
    return this.list().getByRole('button', { name: exactly(this.t('apiKeys.revokeOf', { name })) });
  }

  revokeDialog() {
    // A danger dialog: an alertdialog.
    return this.page.getByRole('alertdialog', { name: exactly(this.t('apiKeys.revokeTitle')) });
  }

  toast(text: string) {
    return this.page.getByRole('status').filter({ hasText: text });
  }
}
