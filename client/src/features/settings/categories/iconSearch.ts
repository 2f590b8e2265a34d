import { CATEGORY_ICON_NAMES, type CategoryIconName } from '../../../components/CategoryIcon';

/** Lower case, without accents or spaces: how a search and a label are compared. */
function folded(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLocaleLowerCase()
    .replace(/\s+/g, '');
}

/**
 * The icon names matching a search: a case- and accent-insensitive substring of the icon's label
 * in the interface's language (`label`) or of its name, ignoring spaces and the 'Icon' suffix (so
 * 'bolsa', 'shopping bag', 'ShoppingBagIcon' and 'bag' all find ShoppingBag). Empty finds all.
 */
export function searchIcons(
  query: string,
  label: (name: CategoryIconName) => string = (name) => name,
  names: readonly CategoryIconName[] = CATEGORY_ICON_NAMES,
): CategoryIconName[] {
  const needle = folded(query.trim()).replace(/icon$/, '');
  if (needle === '') return [...names];
  return names.filter((name) => folded(name).includes(needle) || folded(label(name)).includes(needle));
}
