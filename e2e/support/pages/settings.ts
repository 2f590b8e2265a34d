import { expect, type Locator, type Page } from '@playwright/test';
import { exactly, translator, type Locale, type TKey, type Translate } from '../i18n';
import { ConfirmDialog, FormDialog, PagedListPanel } from './list';
import { ConsentBlock } from './privacy';
import { Screen } from './screen';

/** The settings shell's left menu: collapsible groups of links. */
export class SettingsMenu {
  readonly root: Locator;
  private readonly t: Translate;

  constructor(page: Page, locale: Locale = 'es') {
    this.t = translator(locale);
    this.root = page.getByRole('navigation', { name: this.t('settings.menuLabel') });
  }

  /** The button that opens or closes a group (General, Comercial, Productos). */
  group(key: 'general' | 'commercial' | 'products') {
    return this.root.getByRole('button', { name: exactly(this.t(`settings.groups.${key}`)) });
  }

  link(name: string) {
    return this.root.getByRole('link', { name: exactly(name) });
  }

  links() {
    return this.root.getByRole('link');
  }
}

/** The settings list screens; each has its page at `/settings/<entity>` and texts under `<entity>.`. */
type ListEntity = 'pos' | 'categories' | 'products' | 'users' | 'customers';

/** The texts a list screen is found by, all under its entity's key. */
function listScreenTexts(entity: ListEntity) {
  return {
    title: `${entity}.title`,
    addTitle: `${entity}.addTitle`,
    addButton: `${entity}.add`,
    listTitle: `${entity}.listTitle`,
    editTitle: `${entity}.editTitle`,
  } as const;
}

/**
 * A settings list screen (docs/screens.md): the add form on the left, the paged list on the
 * right, the edit modal and the delete confirmation.
 */
export class ListScreen extends Screen {
  readonly list: PagedListPanel;
  readonly addForm: Locator;
  private readonly texts: ReturnType<typeof listScreenTexts>;

  constructor(page: Page, entity: ListEntity, locale: Locale = 'es') {
    super(page, `/settings/${entity}`, locale);
    this.texts = listScreenTexts(entity);
    this.list = new PagedListPanel(page, this.t(this.texts.listTitle), locale);
    this.addForm = page.getByRole('region', { name: exactly(this.t(this.texts.addTitle)) });
  }

  heading() {
    return this.page.getByRole('heading', { level: 1, name: exactly(this.t(this.texts.title)) });
  }

  /** A field of the add form by its label. */
  addField(label: TKey) {
    return this.addForm.getByLabel(this.t(label));
  }

  addButton() {
    return this.addForm.getByRole('button', { name: exactly(this.t(this.texts.addButton)) });
  }

  /** Fills fields of the add form (by their label keys, in this order) and presses its button. */
  async add(fields: Partial<Record<TKey, string>>): Promise<void> {
    for (const [label, value] of Object.entries(fields) as [TKey, string][]) await this.addField(label).fill(value);
    await this.addButton().click();
  }

  addError() {
    return this.addForm.getByRole('alert');
  }

  /** The offer to reactivate the inactive record an add collided with, and its button. */
  reactivateOffer() {
    return this.addForm.locator('.reactivate-offer');
  }

  reactivateOfferButton() {
    return this.reactivateOffer().getByRole('button', { name: exactly(this.t('list.reactivate')) });
  }

  editDialog(params?: Record<string, string | number>) {
    return new FormDialog(this.page, this.t(this.texts.editTitle, params), this.locale);
  }

  deleteDialog() {
    return new ConfirmDialog(this.page, this.t('list.deleteTitle'), this.locale);
  }

  /** Asks to delete a row and answers the confirmation once it says `text` (the hard or the soft wording). */
  async askToDelete(name: string, text: string): Promise<ConfirmDialog> {
    await this.delete(name);
    const confirm = this.deleteDialog();
    await expect(confirm.root).toContainText(text);
    return confirm;
  }

  /** The row's edit button (most lists put edit and delete on the row itself). */
  async edit(name: string): Promise<void> {
    await this.list.editButton(name).click();
  }

  async delete(name: string): Promise<void> {
    await this.list.deleteButton(name).click();
  }

  /** A toast with this text. */
  toast(text: string) {
    return this.page.getByRole('status').or(this.page.getByRole('alert')).filter({ hasText: text });
  }
}

/** The list screen of one entity, as a class to extend: `new PosScreen(page, locale)`. */
function listScreenOf(entity: ListEntity) {
  return class extends ListScreen {
    constructor(page: Page, locale: Locale = 'es') {
      super(page, entity, locale);
    }
  };
}

export class PosScreen extends listScreenOf('pos') {}

export class CategoriesScreen extends listScreenOf('categories') {
  /** The icon picker dialog. */
  iconPicker() {
    return this.page.getByRole('dialog', { name: exactly(this.t('categories.iconPicker.title')) });
  }

  /** Opens the picker from `scope` (the add form or the edit dialog), searches and picks an icon. */
  async pickIcon(scope: Locator, icon: string, search = icon): Promise<void> {
    await scope.getByRole('button', { name: new RegExp(`^(${this.t('categories.chooseIcon')}|${this.t('categories.changeIcon')})$`) }).click();
    const picker = this.iconPicker();
    await picker.getByRole('searchbox').fill(search);
    await picker.getByRole('button', { name: this.iconLabel(icon), exact: true }).click();
  }

  /** An icon's label in this screen's language ('Bolsa de compras' for ShoppingBag). */
  iconLabel(icon: string): string {
    return this.t(`categories.icons.${icon}` as TKey);
  }
}

export class ProductsScreen extends listScreenOf('products') {}

export class UsersScreen extends listScreenOf('users') {}

export class CustomersScreen extends listScreenOf('customers') {
  /** The privacy notice's boxes of the add form. */
  consent() {
    return new ConsentBlock(this.addForm, this.locale);
  }

  /**
   * Fills the add form and presses its button; the customer authorizes the required purpose of
   * the privacy notice unless `consent` is false.
   */
  override async add(fields: Partial<Record<TKey, string>>, { consent = true }: { consent?: boolean } = {}): Promise<void> {
    for (const [label, value] of Object.entries(fields) as [TKey, string][]) await this.addField(label).fill(value);
    if (consent) await this.consent().required().check();
    await this.addButton().click();
  }

  /** The '⋮' button of a row. */
  rowMenuButton(name: string) {
    return this.list.root.getByRole('button', { name: exactly(this.t('settings.rowMenu', { name })) });
  }

  /** The open row menu (it floats at the end of the page, outside the list). */
  menu() {
    return this.page.getByRole('menu');
  }

  menuItem(action: TKey) {
    return this.menu().getByRole('menuitem', { name: exactly(this.t(action)) });
  }

  /** Customers keep edit and delete behind a row menu. */
  private async choose(name: string, action: TKey): Promise<void> {
    await this.rowMenuButton(name).click();
    await this.menuItem(action).click();
  }

  override async edit(name: string): Promise<void> {
    await this.choose(name, 'common.edit');
  }

  override async delete(name: string): Promise<void> {
    await this.choose(name, 'common.delete');
  }

  /** Opens the dialog of the customer's authorizations; answers it. */
  async openConsents(name: string): Promise<Locator> {
    await this.choose(name, 'customers.menu.consents');
    return this.page.getByRole('dialog', { name: this.t('privacy.consents.title', { name }) });
  }

  /** Opens the page of the customer's personal data (admins). */
  async exportData(name: string): Promise<void> {
    await this.choose(name, 'customers.menu.exportData');
  }

  /** Asks to suppress the customer's personal data (admins); answers the confirmation. */
  async askToSuppress(name: string): Promise<Locator> {
    await this.choose(name, 'customers.menu.suppress');
    return this.page.getByRole('alertdialog', { name: this.t('customers.suppress.title') });
  }
}

/** /settings/rules: the program rules form and the maintenance card. */
export class RulesScreen extends Screen {
  readonly form: Locator;
  readonly maintenance: Locator;

  constructor(page: Page, locale: Locale = 'es') {
    super(page, '/settings/rules', locale);
    this.form = page.getByRole('form', { name: this.t('settings.rules.formLabel') });
    this.maintenance = page.getByRole('region', { name: this.t('settings.maintenance.title') });
  }

  field(label: TKey) {
    return this.form.getByLabel(this.t(label), { exact: true });
  }

  save() {
    return this.form.getByRole('button', { name: exactly(this.t('settings.rules.save')) });
  }

  saved() {
    return this.form.getByRole('status').filter({ hasText: this.t('settings.success') });
  }

  error() {
    return this.form.getByRole('alert');
  }

  runExpiration() {
    return this.maintenance.getByRole('button');
  }

  expirationResult() {
    return this.maintenance.getByRole('status').or(this.maintenance.getByRole('alert'));
  }

  /** The confirmation asked before the irreversible run. */
  expirationDialog() {
    return this.page.getByRole('alertdialog', { name: exactly(this.t('settings.maintenance.confirmTitle')) });
  }

  confirmExpiration() {
    return this.expirationDialog().getByRole('button', { name: exactly(this.t('settings.maintenance.confirmRun')) });
  }

  cancelExpiration() {
    return this.expirationDialog().getByRole('button', { name: exactly(this.t('common.cancel')) });
  }
}

/** /settings/permissions: a checkbox per role and screen. */
export class PermissionsScreen extends Screen {
  constructor(page: Page, locale: Locale = 'es') {
    super(page, '/settings/permissions', locale);
  }

  checkbox(role: 'supervisor' | 'cajero', screen: TKey) {
    return this.page.getByRole('checkbox', {
      name: exactly(this.t('settings.permissions.checkboxLabel', { role: this.t(`roles.${role}`), screen: this.t(screen) })),
    });
  }

  save() {
    return this.page.getByRole('button', { name: exactly(this.t('settings.permissions.save')) });
  }

  saved() {
    return this.page.getByRole('status').filter({ hasText: this.t('settings.success') });
  }
}
