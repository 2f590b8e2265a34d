import type { Page } from '@playwright/test';
import type { Locale } from '../i18n';
import { Screen } from './screen';

/** /login: the username and password form. */
export class LoginPage extends Screen {
  constructor(page: Page, locale: Locale = 'es') {
    super(page, '/login', locale);
  }

  heading() {
    return this.page.getByRole('heading', { level: 1, name: this.t('login.title') });
  }

  username() {
    return this.page.getByLabel(this.t('login.username'));
  }

  password() {
    return this.page.getByLabel(this.t('login.password'));
  }

  submit() {
    return this.page.getByRole('button', { name: this.t('login.submit') });
  }

  /** The message under the form. */
  error() {
    return this.page.getByRole('alert');
  }

  async login(username: string, password: string): Promise<void> {
    await this.username().fill(username);
    await this.password().fill(password);
    await this.submit().click();
  }
}
