import type { Page } from '@playwright/test';
import { exactly, type Locale } from '../i18n';
import { PagedListPanel } from './list';
import { Screen } from './screen';

/** /alertas: the filters, the list of alerts, each with its transactions and "mark reviewed". */
export class AlertsPage extends Screen {
  readonly list: PagedListPanel;

  constructor(page: Page, locale: Locale = 'es') {
    super(page, '/alertas', locale);
    this.list = new PagedListPanel(page, this.t('alerts.listTitle'), locale);
  }

  filter(label: 'statusFilter' | 'kindFilter') {
    return this.page.getByRole('region', { name: this.t('alerts.filters') }).getByLabel(this.t(`alerts.${label}`), { exact: true });
  }

  row(id: number) {
    return this.list.rows().filter({ has: this.page.getByTestId(`alert-${id}`) });
  }

  transactionsButton(id: number) {
    return this.list.root.getByRole('button', { name: exactly(this.t('alerts.showTransactionsOf', { id })) });
  }

  transactions(id: number) {
    return this.page.getByTestId(`alert-transactions-${id}`);
  }

  /** The link to the report filtered to the alert's transactions. */
  reportLink(id: number) {
    return this.list.root.getByRole('link', { name: exactly(this.t('alerts.openReportOf', { id })) });
  }

  reviewButton(id: number) {
    return this.list.root.getByRole('button', { name: exactly(this.t('alerts.markReviewedOf', { id })) });
  }
}
