// @vitest-environment node
import { createInstance } from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import en from './en.json';
import es from './es.json';
import { initI18n, languageChunks, laterTexts } from '.';

describe('language loading', () => {
  it("loads the visitor's language only, and its texts are in once initialised", async () => {
    const instance = createInstance();
    await initI18n(instance, 'es');
    expect(instance.t('login.error')).toBe(es.login.error);
    expect(instance.hasResourceBundle('es', 'translation')).toBe(true);
    expect(instance.hasResourceBundle('en', 'translation')).toBe(false);
  });

  it('has the texts of the later screens once laterTexts resolves, in the same language', async () => {
    const instance = createInstance();
    await initI18n(instance, 'es');
    await laterTexts(instance);
    expect(instance.t('settings.nav.rules')).toBe(es.settings.nav.rules);
    expect(instance.t('errors.webhook.notFound')).toBe(es.errors.webhook.notFound);
    expect(instance.t('errors.auth.loginFailed')).toBe(es.errors.auth.loginFailed);
  });

  it('starts in English for a visitor who chose it, without the Spanish texts', async () => {
    const instance = createInstance();
    await initI18n(instance, 'en');
    expect(instance.t('login.error')).toBe(en.login.error);
    expect(instance.hasResourceBundle('es', 'translation')).toBe(false);
  });

  it('loads the other language when asked, and switches only once its texts are in', async () => {
    const instance = createInstance();
    await initI18n(instance, 'es');
    const switching = instance.changeLanguage('en');
    // Until the texts arrive the screen keeps the language it has: no key shows untranslated.
    expect(instance.language).toBe('es');
    expect(instance.t('login.error')).toBe(es.login.error);
    await switching;
    expect(instance.language).toBe('en');
    expect(instance.hasResourceBundle('en', 'translation')).toBe(true);
    expect(instance.t('login.error')).toBe(en.login.error);
    expect(instance.t('dashboard.errorEnterId')).toBe(en.dashboard.errorEnterId);
    // A language switched to comes whole, the later screens' texts too.
    expect(instance.t('settings.nav.rules')).toBe(en.settings.nav.rules);
    expect(instance.t('errors.field.tooLong', { field: 'x', max: 1 })).toBe(
      en.errors.field.tooLong.replace('{{field}}', 'x').replace('{{max}}', '1'),
    );
  });

  it('switching back to a loaded language needs no load: it is immediate', async () => {
    const instance = createInstance();
    await initI18n(instance, 'es');
    await instance.changeLanguage('en');
    void instance.changeLanguage('es');
    expect(instance.language).toBe('es');
    expect(instance.t('login.error')).toBe(es.login.error);
  });

  it('keeps showing texts, in the language it had, when the other cannot be downloaded', async () => {
    const instance = createInstance();
    await initI18n(instance, 'es');
    vi.spyOn(languageChunks, 'read').mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'));
    await instance.changeLanguage('en');
    expect(instance.t('login.error')).toBe(es.login.error);
    expect(instance.t('dashboard.errorEnterId')).toBe(es.dashboard.errorEnterId);
  });
});
