import { expect, type Page } from '@playwright/test';
import { exactly, translator, type Locale, type TKey, type Translate } from '../i18n';
import { expectPath, PAGES, type PagePath } from '../routes';

/**
 * The logged-in layout every screen shares: header (navigation, theme, language, user, logout),
 * the mobile slide-out menu, the impersonation banner, the page title, toasts and the overlay.
 */
export class AppShell {
  readonly t: Translate;

  constructor(
    readonly page: Page,
    readonly locale: Locale = 'es',
  ) {
    this.t = translator(locale);
  }

  /** Opens `path` and waits for the screen's title. */
  async open(path: string, title: TKey): Promise<void> {
    await this.page.goto(path);
    await expect(this.heading(this.t(title))).toBeVisible();
  }

  /** Checks the app is at `path` and shows that page's title (the route table's). */
  async expectAt(path: PagePath): Promise<void> {
    await expectPath(this.page, path);
    await expect(this.heading(this.t(PAGES[path]))).toBeVisible();
  }

  /** The page's title (h1). */
  heading(name?: string) {
    return name === undefined
      ? this.page.getByRole('heading', { level: 1 })
      : this.page.getByRole('heading', { level: 1, name: exactly(name) });
  }

  /** The header navigation of the desktop layout. */
  nav() {
    return this.page.getByRole('banner').getByRole('navigation', { name: this.t('nav.main') }).first();
  }

  navLink(name: string) {
    return this.nav().getByRole('link', { name: exactly(name) });
  }

  themeToggle() {
    return this.page.getByRole('button', { name: new RegExp(`^(${this.t('theme.switchToDark')}|${this.t('theme.switchToLight')})$`) });
  }

  switchToDark() {
    return this.page.getByRole('button', { name: this.t('theme.switchToDark') });
  }

  switchToLight() {
    return this.page.getByRole('button', { name: this.t('theme.switchToLight') });
  }

  languageMenu() {
    return this.page.getByRole('button', { name: this.t('language.label') });
  }

  /** A language in the open language menu ('Español' or 'English'). */
  languageOption(name: string) {
    return this.page.getByRole('menuitemradio', { name });
  }

  async chooseLanguage(locale: Locale): Promise<AppShell> {
    await this.languageMenu().click();
    await this.languageOption(this.t(`language.${locale}`)).click();
    return new AppShell(this.page, locale);
  }

  /** The desktop logout button in the header. */
  logoutButton() {
    return this.page.getByRole('banner').getByRole('button', { name: this.t('header.logout') }).first();
  }

  /** The login name and company (or role) shown in the header (the desktop one). */
  userBadge() {
    return this.page.getByRole('banner').getByTestId('user-badge').first();
  }

  openMenuButton() {
    return this.page.getByRole('button', { name: this.t('nav.openMenu') });
  }

  /** The slide-out menu of the phone layout. */
  mobileMenu() {
    return this.page.getByRole('complementary', { name: this.t('nav.menu') });
  }

  closeMenuButton() {
    return this.mobileMenu().getByRole('button', { name: this.t('nav.closeMenu') });
  }

  impersonationBanner() {
    return this.page.getByRole('region', { name: this.t('impersonation.exit') });
  }

  exitImpersonation() {
    return this.impersonationBanner().getByRole('button', { name: this.t('impersonation.exit') });
  }

  accessDenied() {
    return this.page.getByRole('heading', { level: 1, name: this.t('accessDenied.title') });
  }

  /** A toast or inline message with this text. */
  message(text: string | RegExp) {
    return this.page.getByText(text);
  }

  /** A toast: success and info toasts are live statuses, error toasts alerts. */
  toast(text: string | RegExp) {
    return this.page.getByRole('status').or(this.page.getByRole('alert')).filter({ hasText: text });
  }

  loadingOverlay() {
    return this.page.getByRole('status').filter({ hasText: this.t('common.loading') });
  }
}
