/** A language's texts as nested groups, the shape of `i18n/es.json`. */
export type Tree = { [key: string]: string | Tree };

/** Every text of `tree` by its full key (`login.error`). */
export function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}
