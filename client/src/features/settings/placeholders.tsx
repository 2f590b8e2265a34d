import { PlaceholderPage } from '../../components/PlaceholderPage';

// Settings pages still to be built; each shows its translated title.

export function RulesPage() {
  return <PlaceholderPage titleKey="settings.rules.title" />;
}

export function PermissionsPage() {
  return <PlaceholderPage titleKey="settings.permissions.title" />;
}

export function UsersPage() {
  return <PlaceholderPage titleKey="users.title" />;
}

export function PosPage() {
  return <PlaceholderPage titleKey="pos.title" />;
}

export function CustomersPage() {
  return <PlaceholderPage titleKey="customers.title" />;
}

export function ProductsPage() {
  return <PlaceholderPage titleKey="products.title" />;
}

export function CategoriesPage() {
  return <PlaceholderPage titleKey="categories.title" />;
}
