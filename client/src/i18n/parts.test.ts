// @vitest-environment node
import { describe, expect, it } from 'vitest';
import en from './en.json';
import es from './es.json';
import { flatten, type Tree } from '../test/texts';
import { LATER_TEXTS, joinParts, textPart } from './parts';

describe('the two parts of a language', () => {
  it.each([
    ['es', es],
    ['en', en],
  ])('split the %s texts in two with nothing lost and nothing twice', (_, texts) => {
    const first = flatten(textPart(texts, false) as Tree);
    const later = flatten(textPart(texts, true) as Tree);
    const whole = flatten(texts as Tree);
    expect(first.size + later.size).toBe(whole.size);
    for (const [key, text] of whole) expect(first.get(key) ?? later.get(key)).toBe(text);
    for (const key of later.keys()) {
      expect(LATER_TEXTS.some((listed) => key === listed || key.startsWith(`${listed}.`))).toBe(true);
    }
    expect(joinParts(textPart(texts, false), textPart(texts, true))).toEqual(texts);
    expect(first.has('login.error')).toBe(true);
    expect(later.has('settings.nav.rules')).toBe(true);
  });

  it('names only groups that exist, so that a renamed group is not silently loaded first', () => {
    const whole = [...flatten(es as Tree).keys()];
    for (const listed of LATER_TEXTS) expect(whole.some((key) => key.startsWith(`${listed}.`))).toBe(true);
  });
});

// The screens shown before the later part arrives: the login, the till, the dashboard and the
// signed-in shell around them.
const FIRST_SCREENS = import.meta.glob(
  ['../features/{auth,dashboard,points}/**/*.{ts,tsx}', '../components/layout/*.{ts,tsx}', '../App.tsx', '!**/*.test.*'],
  { query: '?raw', import: 'default', eager: true },
) as Record<string, string>;

describe('the screens shown first', () => {
  it('are found', () => {
    expect(Object.keys(FIRST_SCREENS).some((file) => file.endsWith('LoginPage.tsx'))).toBe(true);
    expect(Object.keys(FIRST_SCREENS).some((file) => file.endsWith('DashboardPage.tsx'))).toBe(true);
  });

  it('use none of the texts loaded later', () => {
    const used = Object.entries(FIRST_SCREENS).flatMap(([file, source]) =>
      [...source.matchAll(/['"`]([a-zA-Z]+(?:\.[a-zA-Z]+)+)/g)]
        .map((match) => match[1] ?? '')
        .filter((key) => LATER_TEXTS.some((listed) => key === listed || key.startsWith(`${listed}.`)))
        .map((key) => `${file}: ${key}`),
    );
    expect(used).toEqual([]);
  });
});
