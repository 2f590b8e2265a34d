import { CATEGORY_ICON_NAMES, type CategoryIconName } from '../../../components/CategoryIcon';

/**
 * The icon names matching a search: case-insensitive substring, ignoring spaces and the 'Icon'
 * suffix (so 'shopping bag', 'ShoppingBagIcon' and 'bag' all find ShoppingBag). Empty finds all.
 */
export function searchIcons(query: string, names: readonly CategoryIconName[] = CATEGORY_ICON_NAMES): CategoryIconName[] {
  const needle = query
    .trim()
    .toLocaleLowerCase()
    .replace(/\s+/g, '')
    .replace(/icon$/, '');
  if (needle === '') return [...names];
  return names.filter((name) => name.toLocaleLowerCase().includes(needle));
}
