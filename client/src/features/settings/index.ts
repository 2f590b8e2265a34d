export { SettingsLayout } from './SettingsLayout';
export { CategoriesPage } from './categories/CategoriesPage';
export { CustomersPage } from './customers/CustomersPage';
export { PermissionsPage } from './permissions/PermissionsPage';
export { PosPage } from './pos/PosPage';
export { ProductsPage } from './products/ProductsPage';
export { RulesPage } from './rules/RulesPage';
export { UsersPage } from './users/UsersPage';
