// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { CATEGORY_ICON_NAMES, categoryIconComponent, CATEGORY_ICONS } from '../../../components/CategoryIcon';
import { searchIcons } from './iconSearch';

describe('category icons', () => {
  it('are the 26 names of the spec, Tag first', () => {
    expect(CATEGORY_ICON_NAMES).toHaveLength(26);
    expect(CATEGORY_ICON_NAMES[0]).toBe('Tag');
    expect(CATEGORY_ICON_NAMES).toContain('Cog8Tooth');
    expect(CATEGORY_ICON_NAMES).toContain('Sparkles');
  });

  it('fall back to Star for an unknown or empty name', () => {
    expect(categoryIconComponent('NoSuchIcon')).toBe(CATEGORY_ICONS.Star);
    expect(categoryIconComponent('')).toBe(CATEGORY_ICONS.Star);
    expect(categoryIconComponent(null)).toBe(CATEGORY_ICONS.Star);
    expect(categoryIconComponent('Gift')).toBe(CATEGORY_ICONS.Gift);
  });
});

describe('icon search', () => {
  it('finds every icon with an empty search', () => {
    expect(searchIcons('')).toEqual(CATEGORY_ICON_NAMES);
    expect(searchIcons('   ')).toHaveLength(26);
  });

  it('matches a case-insensitive substring of the name', () => {
    expect(searchIcons('shopping')).toEqual(['ShoppingBag', 'ShoppingCart']);
    expect(searchIcons('CART')).toEqual(['ShoppingCart']);
    expect(searchIcons('building')).toEqual(['BuildingStorefront', 'BuildingOffice']);
  });

  it("ignores spaces and the 'Icon' suffix", () => {
    expect(searchIcons('shopping bag')).toEqual(['ShoppingBag']);
    expect(searchIcons('GiftIcon')).toEqual(['Gift']);
    expect(searchIcons('cog8toothicon')).toEqual(['Cog8Tooth']);
  });

  it('finds nothing for a name outside the set', () => {
    expect(searchIcons('rocket')).toEqual([]);
  });

  it('matches the label in the interface language too, without regard to accents', () => {
    const label = (name: string) => ({ ShoppingBag: 'Bolsa de compras', Heart: 'Corazón' })[name] ?? name;
    expect(searchIcons('bolsa', label)).toEqual(['ShoppingBag']);
    expect(searchIcons('corazon', label)).toEqual(['Heart']);
    expect(searchIcons('shopping', label)).toEqual(['ShoppingBag', 'ShoppingCart']);
  });
});
