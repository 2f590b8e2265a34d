import type { Page } from '@playwright/test';
import { translator, type Locale } from '../i18n';

/** /login: the username and password form. */
export class LoginPage {
  private readonly t;

  constructor(
    readonly page: Page,
    locale: Locale = 'es',
  ) {
    this.t = translator(locale);
  }

  async goto(): Promise<void> {
    await this.page.goto('/login');
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
