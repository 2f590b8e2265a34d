// The category icon set (docs/screens.md, "Printouts and exports"): 26 Heroicons names, stored by
// a category without the 'Icon' suffix ('Tag', 'Cog8Tooth', ...). An unknown or empty name shows
// Star.

import {
  AcademicCapIcon,
  BeakerIcon,
  BookOpenIcon,
  BuildingOfficeIcon,
  BuildingStorefrontIcon,
  CakeIcon,
  Cog8ToothIcon,
  ComputerDesktopIcon,
  CreditCardIcon,
  DevicePhoneMobileIcon,
  GiftIcon,
  GlobeAltIcon,
  HeartIcon,
  HomeModernIcon,
  KeyIcon,
  MapIcon,
  MusicalNoteIcon,
  PuzzlePieceIcon,
  ShoppingBagIcon,
  ShoppingCartIcon,
  SparklesIcon,
  StarIcon,
  TagIcon,
  TicketIcon,
  TruckIcon,
  WrenchScrewdriverIcon,
} from '@heroicons/react/24/outline';
import type { ComponentType, SVGProps } from 'react';

type HeroIcon = ComponentType<SVGProps<SVGSVGElement> & { title?: string; titleId?: string }>;

/** The icons a category may use, in the order the picker shows them. */
export const CATEGORY_ICONS = {
  Tag: TagIcon,
  Star: StarIcon,
  Gift: GiftIcon,
  ShoppingBag: ShoppingBagIcon,
  Cake: CakeIcon,
  Beaker: BeakerIcon,
  CreditCard: CreditCardIcon,
  BuildingStorefront: BuildingStorefrontIcon,
  DevicePhoneMobile: DevicePhoneMobileIcon,
  ComputerDesktop: ComputerDesktopIcon,
  ShoppingCart: ShoppingCartIcon,
  Heart: HeartIcon,
  HomeModern: HomeModernIcon,
  MusicalNote: MusicalNoteIcon,
  BookOpen: BookOpenIcon,
  PuzzlePiece: PuzzlePieceIcon,
  GlobeAlt: GlobeAltIcon,
  Truck: TruckIcon,
  WrenchScrewdriver: WrenchScrewdriverIcon,
  BuildingOffice: BuildingOfficeIcon,
  Key: KeyIcon,
  Cog8Tooth: Cog8ToothIcon,
  Map: MapIcon,
  Ticket: TicketIcon,
  AcademicCap: AcademicCapIcon,
  Sparkles: SparklesIcon,
} as const satisfies Record<string, HeroIcon>;

export type CategoryIconName = keyof typeof CATEGORY_ICONS;

export const CATEGORY_ICON_NAMES = Object.keys(CATEGORY_ICONS) as CategoryIconName[];

export const FALLBACK_CATEGORY_ICON: CategoryIconName = 'Star';

export function isCategoryIconName(name: unknown): name is CategoryIconName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(CATEGORY_ICONS, name);
}

/** The component for a stored icon name; Star when the name is not in the set. */
export function categoryIconComponent(name: string | null | undefined): HeroIcon {
  return isCategoryIconName(name) ? CATEGORY_ICONS[name] : CATEGORY_ICONS[FALLBACK_CATEGORY_ICON];
}

/** A category's icon (decorative: the category name is always shown beside it). */
export function CategoryIcon({ name, className }: { name: string | null | undefined; className?: string }) {
  const shown = isCategoryIconName(name) ? name : FALLBACK_CATEGORY_ICON;
  const Icon = CATEGORY_ICONS[shown];
  return <Icon className={className} aria-hidden="true" data-icon={shown} />;
}
