import type { Page } from '@playwright/test';
import { translator, type Locale, type Translate } from '../i18n';

/** A screen of the app at its own path, read in one language. */
export class Screen {
  readonly t: Translate;

  constructor(
    readonly page: Page,
    private readonly path: string,
    readonly locale: Locale = 'es',
  ) {
    this.t = translator(locale);
  }

  async goto(): Promise<void> {
    await this.page.goto(this.path);
  }
}
