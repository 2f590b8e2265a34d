import type { Page } from '@playwright/test';
import { Screen } from './screen';

/** /settings/webhooks (docs/screens.md, "Webhooks"). */
export class WebhooksScreen extends Screen {
  constructor(page: Page) {
    super(page, '/settings/webhooks');
  }

  heading() {
    return this.page.getByRole('heading', { level: 1, name: this.t('settings.webhooks.title') });
  }

  addButton() {
    return this.page.getByRole('button', { name: this.t('settings.webhooks.addButton') });
  }

  dialog() {
    return this.page.getByRole('dialog');
  }

  /** Fills the add dialog with the address and the events (by their names) and submits it. */
  async add(url: string, events: string[]): Promise<void> {
    await this.addButton().click();
    const dialog = this.dialog();
    await dialog.getByLabel(this.t('settings.webhooks.url')).fill(url);
    const defaults = dialog.getByRole('checkbox', { checked: true });
    for (const box of await defaults.all()) await box.uncheck();
    for (const event of events) await dialog.getByRole('checkbox', { name: new RegExp(`\\(${event.replace('.', '\\.')}\\)`) }).check();
    await dialog.getByRole('button', { name: this.t('settings.webhooks.add'), exact: true }).click();
  }

  /** The secret in its dialog (the dialog bears the same name). */
  secret() {
    return this.dialog().getByLabel(this.t('settings.webhooks.secret'));
  }

  closeSecret() {
    return this.page.getByRole('button', { name: this.t('settings.webhooks.secretSaved') });
  }

  deliveriesButton() {
    return this.page.getByRole('button', { name: this.t('settings.webhooks.deliveries'), exact: true });
  }

  deliveries(url: string) {
    return this.page.getByRole('region', { name: this.t('settings.webhooks.deliveriesOf', { url }) });
  }

  refresh() {
    return this.page.getByRole('button', { name: this.t('settings.webhooks.refresh') });
  }
}
