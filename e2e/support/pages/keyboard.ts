import { expect, type Locator, type Page } from '@playwright/test';

/** What has the focus, and how it shows. */
export interface FocusedControl {
  /** A short description for messages: tag, role or name. */
  description: string;
  /** The browser shows it as keyboard focus (`:focus-visible`). */
  focusVisible: boolean;
  outline: string;
  boxShadow: string;
}

/**
 * Working a screen by the keyboard alone, as a cashier without a mouse does: Tab and Shift+Tab
 * walk the controls, and at every stop the focused control must show its focus (a computed
 * outline or box-shadow, not `none`, while the browser treats it as keyboard focus).
 */
export class KeyboardUser {
  /** The controls the focus stopped on, in order (for messages). */
  readonly path: string[] = [];

  constructor(readonly page: Page) {}

  /** The focused element, or null when the focus is on the page itself (body). */
  async focused(): Promise<FocusedControl | null> {
    return this.page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body || element === document.documentElement) return null;
      const style = getComputedStyle(element);
      const outline = style.outlineStyle === 'none' || parseFloat(style.outlineWidth) === 0 ? 'none' : `${style.outlineWidth} ${style.outlineStyle} ${style.outlineColor}`;
      const name = element.getAttribute('aria-label') ?? element.getAttribute('name') ?? (element.textContent ?? '').trim().slice(0, 40);
      return {
        description: `<${element.tagName.toLowerCase()}${element.getAttribute('role') ? ` role=${element.getAttribute('role')}` : ''}> ${name}`,
        focusVisible: element.matches(':focus-visible'),
        outline,
        boxShadow: style.boxShadow,
      };
    });
  }

  /** The focused control shows its focus. */
  async expectVisibleFocus(): Promise<void> {
    const control = await this.focused();
    expect(control, 'a control has the focus').not.toBeNull();
    expect(control!.focusVisible, `${control!.description} is focused as by the keyboard`).toBe(true);
    expect(control!.outline !== 'none' || control!.boxShadow !== 'none', `${control!.description} shows its focus (outline or box-shadow)`).toBe(true);
  }

  /** Whether `target` has the focus. */
  async has(target: Locator): Promise<boolean> {
    if ((await target.count()) !== 1) return false;
    return target.evaluate((element) => element === document.activeElement);
  }

  /**
   * Presses Tab (Shift+Tab with `backwards`) until `target` has the focus, checking the focus is
   * visible at every control it stops on. Fails after `max` presses.
   */
  async tabTo(target: Locator, { backwards = false, max = 60 } = {}): Promise<void> {
    if (await this.has(target)) {
      await this.expectVisibleFocus();
      return;
    }
    for (let press = 0; press < max; press += 1) {
      await this.page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
      // Tabbing past the last control passes through the page itself, which has no focus ring.
      const control = await this.focused();
      if (control) {
        this.path.push(control.description);
        await this.expectVisibleFocus();
      }
      if (await this.has(target)) return;
    }
    throw new Error(`${backwards ? 'Shift+Tab' : 'Tab'} did not reach ${target} in ${max} presses; it went through:\n  ${this.path.slice(-max).join('\n  ')}`);
  }

  /** Tabs to `target` and presses `key` on it (Enter for links and buttons, Space for toggles). */
  async press(target: Locator, key: 'Enter' | 'Space', options: { backwards?: boolean } = {}): Promise<void> {
    await this.tabTo(target, options);
    await this.page.keyboard.press(key);
  }

  /** Tabs to a text field and types into it, key by key. */
  async type(target: Locator, text: string, options: { backwards?: boolean } = {}): Promise<void> {
    await this.tabTo(target, options);
    await this.page.keyboard.type(text);
  }
}
