// The row menu of a list floats above the page: the last row's menu is never clipped by the list's
// box, and it works from the keyboard (Enter, Space or ArrowDown opens it on the first item, the
// arrows move, Escape closes it and gives the focus back to the button).

import { expect, test } from '../../support/fixtures';
import type { Locale } from '../../support/i18n';
import { CustomersScreen } from '../../support/pages/settings';

for (const locale of ['es', 'en'] as const satisfies readonly Locale[]) {
  test.describe(locale, () => {
    test('the last row’s menu opens outside the list and its items can be clicked', async ({ newCompanyAdmin }) => {
      const { company, page } = await newCompanyAdmin({ locale });
      await page.setViewportSize({ width: 1280, height: 720 });
      for (let index = 0; index < 10; index += 1) {
        await company.api.createCustomer({ name: `Cliente ${String(index).padStart(2, '0')}`, document: String(70010 + index) });
      }
      const screen = new CustomersScreen(page, locale);
      await screen.goto();
      await expect(screen.list.rows()).toHaveCount(10);

      const last = 'Cliente 09';
      await screen.rowMenuButton(last).scrollIntoViewIfNeeded();
      await screen.rowMenuButton(last).click();
      await expect(screen.menu()).toBeVisible();
      // The menu is not inside the list's box, and it lies wholly on screen.
      await expect(screen.list.root.getByRole('menu')).toHaveCount(0);
      const box = await screen.menu().boundingBox();
      expect(box).not.toBeNull();
      expect(box!.y).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height).toBeLessThanOrEqual(720);

      await screen.menuItem('common.delete').click();
      await expect(screen.deleteDialog().root).toBeVisible();
      await screen.deleteDialog().cancel().click();
      await expect(screen.menu()).toHaveCount(0);

      await screen.rowMenuButton(last).click();
      await screen.menuItem('common.edit').click();
      await expect(screen.editDialog().root).toBeVisible();
    });

    test('the row menu works from the keyboard', async ({ newCompanyAdmin }) => {
      const { company, page } = await newCompanyAdmin({ locale });
      await company.api.createCustomer({ name: 'Teclado Uno', document: '7002001' });
      const screen = new CustomersScreen(page, locale);
      await screen.goto();
      const button = screen.rowMenuButton('Teclado Uno');

      await button.focus();
      await page.keyboard.press('Enter');
      await expect(screen.menuItem('common.edit')).toBeFocused();
      await page.keyboard.press('ArrowDown');
      await expect(screen.menuItem('common.delete')).toBeFocused();
      // Customer rows end with the holder's rights: the authorizations, and for an admin the
      // export and the suppression.
      await page.keyboard.press('ArrowDown');
      await expect(screen.menuItem('customers.menu.consents')).toBeFocused();
      await page.keyboard.press('ArrowDown');
      await expect(screen.menuItem('customers.menu.exportData')).toBeFocused();
      await page.keyboard.press('ArrowDown');
      await expect(screen.menuItem('customers.menu.suppress')).toBeFocused();
      await page.keyboard.press('ArrowDown');
      await expect(screen.menuItem('common.edit')).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(screen.menu()).toHaveCount(0);
      await expect(button).toBeFocused();

      await page.keyboard.press('Space');
      await expect(screen.menuItem('common.edit')).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(button).toBeFocused();

      await page.keyboard.press('ArrowDown');
      await expect(screen.menuItem('common.edit')).toBeFocused();
      await page.keyboard.press('ArrowUp');
      await expect(screen.menuItem('customers.menu.suppress')).toBeFocused();
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await expect(screen.menuItem('common.delete')).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(screen.deleteDialog().root).toBeVisible();
    });
  });
}
