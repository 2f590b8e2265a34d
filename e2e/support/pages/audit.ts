import type { Page } from '@playwright/test';
import type { Locale } from '../i18n';
import { PagedListPanel } from './list';
import { Screen } from './screen';

/** /auditoria: the audit trail's filters and its paged list of entries. */
export class AuditScreen extends Screen {
  readonly list: PagedListPanel;

  constructor(page: Page, locale: Locale = 'es') {
    super(page, '/auditoria', locale);
    this.list = new PagedListPanel(page, this.t('audit.listTitle'), locale);
  }

  filters() {
    return this.page.getByRole('region', { name: this.t('audit.filters.title') });
  }

  actionFilter() {
    return this.filters().getByRole('combobox', { name: this.t('audit.filters.action') });
  }

  clearFilters() {
    return this.filters().getByRole('button', { name: this.t('audit.filters.clear') });
  }

  /** The entry whose action reads `action` (its words) and holding `text`, if given. */
  entry(action: string, text?: string | RegExp) {
    const rows = this.list.rows().filter({ has: this.page.getByText(action, { exact: true }) });
    return text === undefined ? rows : rows.filter({ hasText: text });
  }
}
