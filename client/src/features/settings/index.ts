export { SettingsLayout } from './SettingsLayout';
export {
  CategoriesPage,
  CustomersPage,
  PermissionsPage,
  PosPage,
  ProductsPage,
  RulesPage,
  UsersPage,
} from './placeholders';
