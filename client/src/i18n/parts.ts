/**
 * The texts that only screens loaded later use (settings, audit, the operator's screen), as
 * groups (`settings`) or groups within a group (`errors.webhook`): each language's texts go out
 * as two chunks, the first without these, fetched before the first render, and the rest right
 * after it (docs/performance.md, "Initial JavaScript"). A screen that uses them awaits
 * `laterTexts()` as it loads (routes/routeTable.tsx); the login, the till and the dashboard must
 * not. An error's text missing meanwhile shows the server's own message, in the same language.
 */
export const LATER_TEXTS: readonly string[] = [
  'settings',
  'audit',
  'superAdmin',
  'categories',
  'customerImport',
  'apiKeys',
  'products',
  'users',
  'errors.companyStats',
  'errors.company',
  'errors.superAdmin',
  'errors.user',
  'errors.product',
  'errors.category',
  'errors.settings',
  'errors.import',
  'errors.apiKey',
  'errors.posApi',
  'errors.webhook',
];

type Texts = Record<string, unknown>;

const isGroup = (value: unknown): value is Texts => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The texts of `texts` in the first part (`later` false) or in the later one. */
export function textPart(texts: Texts, later: boolean, path = ''): Texts {
  const part: Texts = {};
  for (const [key, value] of Object.entries(texts)) {
    const name = path + key;
    if (LATER_TEXTS.includes(name)) {
      if (later) part[key] = value;
    } else if (isGroup(value) && LATER_TEXTS.some((listed) => listed.startsWith(`${name}.`))) {
      part[key] = textPart(value, later, `${name}.`);
    } else if (!later) {
      part[key] = value;
    }
  }
  return part;
}

/** The two parts of a language joined again: the inverse of `textPart`. */
export function joinParts(first: Texts, later: Texts): Texts {
  const whole: Texts = { ...first };
  for (const [key, value] of Object.entries(later)) {
    const mine = whole[key];
    whole[key] = isGroup(mine) && isGroup(value) ? joinParts(mine, value) : value;
  }
  return whole;
}
