// The details a new user found on the settings and redeem screens, in both languages: the icon
// field keeps its button in its box and names icons in the screen's language without breaking a
// word; on a phone the permissions table shows every role's column; the redeem card keeps a name
// on one line; a form's "required" error goes once the fields are filled; rates read with the
// language's decimal mark.

import type { Locator } from '@playwright/test';
import { expect, test } from '../../support/fixtures';
import { translator, type Locale } from '../../support/i18n';
import { RedeemPanel } from '../../support/pages/operations';
import { CategoriesScreen, CustomersScreen, PermissionsScreen, RulesScreen } from '../../support/pages/settings';

const PHONE = { width: 375, height: 800 };

/** How many lines an element's text takes. */
function lineCount(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  });
}

/** The texts, among these elements, that have a word broken over two lines. */
function brokenWords(locator: Locator): Promise<string[]> {
  return locator.evaluateAll((elements) =>
    elements
      .filter((element) => {
        const text = element.firstChild;
        if (!text || text.nodeType !== Node.TEXT_NODE) return false;
        const content = text.textContent ?? '';
        for (const word of content.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(text, word.index);
          range.setEnd(text, word.index + word[0].length);
          if (new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1) return true;
        }
        return false;
      })
      .map((element) => element.textContent ?? ''),
  );
}

for (const locale of ['es', 'en'] as const satisfies readonly Locale[]) {
  test.describe(locale, () => {
    const t = translator(locale);

    test('the icon field keeps its button in its box; icons have labels in the language, never broken mid-word', async ({ newCompanyAdmin }) => {
      const { page } = await newCompanyAdmin({ locale });
      await page.setViewportSize(PHONE);
      const screen = new CategoriesScreen(page, locale);
      await screen.goto();
      await screen.pickIcon(screen.addForm, 'WrenchScrewdriver', locale === 'es' ? 'herramientas' : 'tools');
      const field = screen.addForm.locator('.icon-field');
      await expect(field.getByTestId('icon-field-value')).toHaveText(t('categories.icons.WrenchScrewdriver'));
      const box = (await field.boundingBox())!;
      const button = (await field.getByRole('button', { name: t('categories.changeIcon') }).boundingBox())!;
      expect(button.x).toBeGreaterThanOrEqual(box.x);
      expect(button.x + button.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
      expect(button.y + button.height).toBeLessThanOrEqual(box.y + box.height + 0.5);

      await field.getByRole('button', { name: t('categories.changeIcon') }).click();
      const picker = screen.iconPicker();
      await expect(picker.getByRole('button', { name: t('categories.icons.ShoppingBag'), exact: true })).toBeVisible();
      await expect(picker.getByText('ShoppingBag', { exact: true })).toHaveCount(0);
      expect(await brokenWords(picker.locator('.icon-choice-name'))).toEqual([]);
    });

    test('on a phone the permissions table shows the cashier column', async ({ newCompanyAdmin }) => {
      const { page } = await newCompanyAdmin({ locale });
      await page.setViewportSize(PHONE);
      const permissions = new PermissionsScreen(page, locale);
      await permissions.goto();
      const cashier = page.getByRole('columnheader', { name: t('roles.cajero') });
      await expect(cashier).toBeVisible();
      const header = (await cashier.boundingBox())!;
      expect(header.x + header.width).toBeLessThanOrEqual(PHONE.width);
      const checkbox = (await permissions.checkbox('cajero', 'settings.permissions.paths.reports').boundingBox())!;
      expect(checkbox.x + checkbox.width).toBeLessThanOrEqual(PHONE.width);
      // Nothing hides sideways in the table's box.
      const overflow = await page.locator('.table-scroll').evaluate((element) => element.scrollWidth - element.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });

    test('the redeem card keeps the customer’s name on one line', async ({ newCompanyAdmin }) => {
      const { company, page } = await newCompanyAdmin({ locale });
      await company.api.saveSettings({ pointsPerPeso: 0.01, redemptionRate: 10 });
      await company.api.createCustomer({ name: 'Pedro A. Ramírez', document: '80123456' });
      await page.setViewportSize(PHONE);
      await page.goto('/redimir');
      const redeem = new RedeemPanel(page.getByRole('main'), locale);
      await redeem.lookup.find('80123456');
      const name = redeem.lookup.customerCard().getByText('Pedro A. Ramírez');
      await expect(name).toBeVisible();
      expect(await lineCount(name)).toBe(1);
    });

    test('the required error goes once the fields are filled; rates read with the language’s decimal mark', async ({ newCompanyAdmin }) => {
      const { company, page } = await newCompanyAdmin({ locale });
      const customers = new CustomersScreen(page, locale);
      await customers.goto();
      await customers.addButton().click();
      await expect(customers.addError()).toHaveText(t('customers.errorNameAndIdRequired'));
      await customers.addField('customers.fields.name').fill('Marta Gil');
      await customers.addField('customers.fields.document').fill('43111222');
      await expect(customers.addError()).toHaveCount(0);

      await company.api.saveSettings({ pointsPerPeso: 0.01, redemptionRate: 10, campaignMultiplier: 1.5 });
      const rules = new RulesScreen(page, locale);
      await rules.goto();
      const mark = locale === 'es' ? ',' : '.';
      await expect(rules.field('settings.rules.pointsPerPeso')).toHaveValue(`0${mark}01`);
      await expect(rules.field('settings.rules.campaignMultiplier')).toHaveValue(`1${mark}5`);
      await rules.field('settings.rules.pointsPerPeso').fill(`0${mark}02`);
      await rules.save().click();
      await expect(rules.saved()).toBeVisible();
      expect((await company.api.settings()).pointsPerPeso).toBe(0.02);
    });
  });
}
