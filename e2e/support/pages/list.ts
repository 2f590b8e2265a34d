import type { Locator, Page } from '@playwright/test';
import { exactly, translator, type Locale, type TKey, type Translate } from '../i18n';

/**
 * The searchable, paged list every list screen shares (docs/screens.md,
 * 'Lists'): title, search box, per-page selector, 'showing start-end of total', previous/next,
 * and per-row edit and delete.
 */
export class PagedListPanel {
  readonly root: Locator;
  private readonly t: Translate;

  constructor(
    readonly page: Page,
    title: string,
    locale: Locale = 'es',
  ) {
    this.t = translator(locale);
    this.root = page.getByRole('region', { name: exactly(title) });
  }

  search() {
    return this.root.getByRole('searchbox');
  }

  perPage() {
    return this.root.getByRole('combobox', { name: this.t('list.perPage') });
  }

  pagination() {
    return this.root.getByRole('navigation', { name: this.t('list.pagination') });
  }

  /** The 'showing start-end of total' text. */
  range() {
    return this.pagination().getByTestId('list-range');
  }

  rangeText(start: number, end: number, total: number): string {
    return this.t('list.showing', { start, end, total });
  }

  next() {
    return this.pagination().getByRole('button', { name: this.t('list.next') });
  }

  previous() {
    return this.pagination().getByRole('button', { name: this.t('list.previous') });
  }

  rows() {
    return this.root.getByRole('listitem');
  }

  row(text: string | RegExp) {
    return this.rows().filter({ hasText: text });
  }

  /** The empty-state or no-results text. */
  emptyText() {
    return this.root.getByTestId('list-empty');
  }

  /** The 'show inactive' switch: while on, the list holds the inactive records. */
  showInactive() {
    return this.root.getByLabel(this.t('list.showInactive'));
  }

  reactivateButton(name: string) {
    return this.root.getByRole('button', { name: exactly(`${this.t('list.reactivate')} ${name}`) });
  }

  editButton(name: string) {
    return this.root.getByRole('button', { name: exactly(`${this.t('common.edit')} ${name}`) });
  }

  deleteButton(name: string) {
    return this.root.getByRole('button', { name: exactly(`${this.t('common.delete')} ${name}`) });
  }
}

/** A dialog found by its role and title, with its buttons. */
class Dialog {
  readonly root: Locator;
  protected readonly t: Translate;

  constructor(page: Page, role: 'dialog' | 'alertdialog', title: string, locale: Locale) {
    this.t = translator(locale);
    this.root = page.getByRole(role, { name: exactly(title) });
  }

  button(name: string) {
    return this.root.getByRole('button', { name: exactly(name) });
  }

  cancel() {
    return this.button(this.t('common.cancel'));
  }
}

/** The edit modal of the list screens (fields, Cancel and Update) or any form dialog. */
export class FormDialog extends Dialog {
  constructor(page: Page, title: string, locale: Locale = 'es') {
    super(page, 'dialog', title, locale);
  }

  field(label: string | RegExp) {
    return this.root.getByLabel(label);
  }

  update() {
    return this.button(this.t('common.update'));
  }

  /** Fills fields (by their label keys, in this order) and presses Update, as `ListScreen.add` does. */
  async save(fields: Partial<Record<TKey, string>>): Promise<void> {
    for (const [label, value] of Object.entries(fields) as [TKey, string][]) await this.field(this.t(label)).fill(value);
    await this.update().click();
  }

  error() {
    return this.root.getByRole('alert');
  }
}

/** The delete confirmation (an alert dialog): its text, Cancel and Delete. */
export class ConfirmDialog extends Dialog {
  constructor(page: Page, title: string, locale: Locale = 'es') {
    super(page, 'alertdialog', title, locale);
  }

  confirm() {
    return this.button(this.t('common.delete'));
  }
}
