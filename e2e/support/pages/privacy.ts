import type { Locator, Page } from '@playwright/test';
import { exactly, translator, type Locale, type Translate } from '../i18n';
import { Screen } from './screen';

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The privacy notice's block of an enrolment form (the add form of /settings/customers, the till's
 * dialog): the version in force, the folded text, and one box per purpose.
 */
export class ConsentBlock {
  private readonly t: Translate;

  constructor(
    private readonly scope: Locator,
    locale: Locale = 'es',
  ) {
    this.t = translator(locale);
  }

  /** The block, named by the version of the notice it shows. */
  root(version: number) {
    return this.scope.getByRole('group', { name: exactly(this.t('privacy.consent.legend', { version })) });
  }

  /** The box of the purpose whose description starts with `description`. */
  purpose(description: string) {
    return this.scope.getByRole('checkbox', { name: new RegExp(`^${escape(description)}`) });
  }

  /** The box of the required purpose. */
  required() {
    return this.scope.getByRole('checkbox', { name: new RegExp(`\\(${escape(this.t('privacy.consent.required'))}\\)$`) });
  }
}

/** /privacidad/{prefix}: a company's notice in force, without logging in. */
export class PublicNoticePage extends Screen {
  constructor(page: Page, prefix: string, locale: Locale = 'es') {
    super(page, `/privacidad/${prefix}`, locale);
  }

  heading(company: string) {
    return this.page.getByRole('heading', { level: 1, name: exactly(this.t('privacy.public.title', { company })) });
  }

  article() {
    return this.page.getByRole('article');
  }

  notFound() {
    return this.page.getByRole('alert');
  }
}

/** /settings/privacy (admins): the versions and the form that publishes the next one. */
export class PrivacySettingsScreen extends Screen {
  readonly form: Locator;

  constructor(page: Page, locale: Locale = 'es') {
    super(page, '/settings/privacy', locale);
    this.form = page.getByRole('form', { name: this.t('privacy.settings.formTitle') });
  }

  body() {
    return this.form.getByLabel(this.t('privacy.settings.body'));
  }

  publish() {
    return this.form.getByRole('button', { name: exactly(this.t('privacy.settings.publish')) });
  }

  inForce(version: number) {
    return this.page.getByText(this.t('privacy.settings.inForce', { version }));
  }

  versions() {
    return this.page.getByRole('region', { name: this.t('privacy.settings.versions') }).getByRole('listitem');
  }
}
