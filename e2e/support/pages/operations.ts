import type { Locator, Page } from '@playwright/test';
import { exactly, translator, type Locale, type TKey, type Translate } from '../i18n';
import { PagedListPanel } from './list';
import { Screen } from './screen';

/** Finding a customer by document: the field, its search button, the error and the card. */
export class CustomerLookupPanel {
  private readonly t: Translate;

  constructor(
    readonly scope: Locator,
    locale: Locale = 'es',
  ) {
    this.t = translator(locale);
  }

  form() {
    return this.scope.getByRole('search', { name: this.t('dashboard.lookup.title') });
  }

  document() {
    return this.form().getByLabel(this.t('dashboard.lookup.document'));
  }

  searchButton() {
    return this.form().getByRole('button', { name: exactly(this.t('common.search')) });
  }

  /** The lookup's message (empty document, customer not found). */
  error() {
    return this.scope.getByRole('alert').first();
  }

  customerCard() {
    return this.scope.getByTestId('customer-card');
  }

  /** The balance on the customer card. */
  balance() {
    return this.customerCard().getByTestId('customer-points');
  }

  changeCustomer() {
    return this.customerCard().getByRole('button', { name: this.t('dashboard.lookup.changeCustomer') });
  }

  async find(document: string): Promise<void> {
    await this.document().fill(document);
    await this.searchButton().click();
  }
}

/** What the accredit and redeem forms share: the customer lookup, the form, its reference, submit and error. */
class OperationPanel {
  readonly lookup: CustomerLookupPanel;
  readonly form: Locator;
  protected readonly t: Translate;

  constructor(
    readonly scope: Locator,
    private readonly operation: 'accredit' | 'redeem',
    locale: Locale,
  ) {
    this.t = translator(locale);
    this.lookup = new CustomerLookupPanel(scope, locale);
    this.form = scope.getByRole('form', { name: this.t(`${operation}.formLabel`) });
  }

  reference() {
    return this.form.getByLabel(this.t(`${this.operation}.invoiceReference`));
  }

  submit() {
    return this.form.getByRole('button', { name: exactly(this.t(`${this.operation}.submit`)) });
  }

  error() {
    return this.form.getByRole('alert');
  }
}

/** The accredit form (the /accreditar screen or the dashboard's quick panel). */
export class AccreditPanel extends OperationPanel {
  constructor(scope: Locator, locale: Locale = 'es') {
    super(scope, 'accredit', locale);
  }

  amount() {
    return this.form.getByLabel(this.t('accredit.invoiceAmount'));
  }

  success() {
    return this.form.getByRole('status');
  }
}

/** The redeem form (the /redimir screen or the dashboard's quick panel) with its products. */
export class RedeemPanel extends OperationPanel {
  readonly products: Locator;

  constructor(scope: Locator, locale: Locale = 'es') {
    super(scope, 'redeem', locale);
    this.products = scope.getByRole('region', { name: this.t('redeem.productsTitle') });
  }

  points() {
    return this.form.getByLabel(this.t('redeem.points'));
  }

  description() {
    return this.form.getByLabel(this.t('redeem.description'));
  }

  equivalentValue() {
    return this.form.getByTestId('equivalent-value');
  }

  productSearch() {
    return this.products.getByRole('searchbox', { name: this.t('redeem.searchProducts') });
  }

  category() {
    return this.products.getByLabel(this.t('redeem.category'));
  }

  gridView() {
    return this.products.getByRole('button', { name: this.t('redeem.gridView') });
  }

  listView() {
    return this.products.getByRole('button', { name: this.t('redeem.listView') });
  }

  /** The product buttons shown, in order. */
  productOptions() {
    return this.products.getByRole('list', { name: this.t('redeem.productsTitle') }).getByRole('button');
  }

  product(name: string) {
    return this.productOptions().filter({ hasText: name });
  }

  /** The empty-state text of the product area. */
  productsMessage(key: TKey) {
    return this.products.getByText(this.t(key));
  }
}

/** The redemption receipt (or a return's) in its dialog. */
export class ReceiptDialog {
  readonly root: Locator;
  readonly receipt: Locator;
  private readonly t: Translate;

  constructor(
    readonly page: Page,
    locale: Locale = 'es',
    kind: 'redemption' | 'return' = 'redemption',
  ) {
    this.t = translator(locale);
    const [dialogTitle, title] =
      kind === 'return' ? (['receipt.returnTitle', 'receipt.returnTitle'] as const) : (['receipt.dialogTitle', 'receipt.title'] as const);
    this.root = page.getByRole('dialog', { name: exactly(this.t(dialogTitle)) });
    this.receipt = this.root.getByRole('article', { name: this.t(title) });
  }

  /** The receipt's labelled lines (term -> definition). */
  async lines(): Promise<Record<string, string>> {
    await this.receipt.getByRole('term').last().waitFor();
    const terms = await this.receipt.getByRole('term').allTextContents();
    const values = await this.receipt.getByRole('definition').allTextContents();
    return Object.fromEntries(terms.map((term, index) => [term.trim(), (values[index] ?? '').trim()]));
  }

  /** The footer's close button (the header's icon button has the same name but no text). */
  close() {
    return this.root.getByRole('button', { name: exactly(this.t('common.close')) }).filter({ hasText: this.t('common.close') });
  }

  print() {
    return this.root.getByRole('button', { name: exactly(this.t('common.print')) });
  }
}

/** /reportes: filters, the paged transaction list, CSV export, void and reprint. */
export class ReportsPage extends Screen {
  readonly list: PagedListPanel;
  readonly filters: Locator;

  constructor(page: Page, locale: Locale = 'es') {
    super(page, '/reportes', locale);
    this.list = new PagedListPanel(page, this.t('reports.listTitle'), locale);
    this.filters = page.getByRole('region', { name: this.t('reports.filters.title') });
  }

  filter(label: 'type' | 'pos' | 'cashier' | 'from' | 'to') {
    return this.filters.getByLabel(this.t(`reports.filters.${label}`), { exact: true });
  }

  clearFilters() {
    return this.filters.getByRole('button', { name: this.t('reports.filters.clear') });
  }

  exportButton() {
    return this.list.root.getByRole('button', { name: this.t('reports.csv.export') });
  }

  /** The row of a transaction. */
  row(id: number) {
    return this.list.rows().filter({ has: this.page.getByTestId(`transaction-${id}`) });
  }

  voidButton(id: number) {
    return this.list.root.getByRole('button', { name: exactly(this.t('reports.void.buttonLabel', { id })) });
  }

  reprintButton(id: number) {
    return this.list.root.getByRole('button', { name: exactly(this.t('reports.reprintLabel', { id })) });
  }

  voidDialog() {
    return this.page.getByRole('alertdialog', { name: exactly(this.t('reports.void.title')) });
  }

  returnButton(id: number) {
    return this.list.root.getByRole('button', { name: exactly(this.t('reports.return.buttonLabel', { id })) });
  }

  returnDialog() {
    return this.page.getByRole('dialog', { name: exactly(this.t('reports.return.title')) });
  }

  /** The void result banner (green status or red alert). */
  voidBanner(text: string) {
    return this.page.getByRole('status').or(this.page.getByRole('alert')).filter({ hasText: text });
  }
}
