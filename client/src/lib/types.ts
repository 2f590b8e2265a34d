// Shapes of the JSON the API answers with (DESIGN.md section 5, SPEC.md sections 3 and 7).

export type Role = 'super_admin' | 'admin' | 'supervisor' | 'cajero';

/** The company a user belongs to, as carried in the login answer. */
export interface UserCompany {
  id: number;
  name: string;
  logoUrl: string | null;
  businessName: string | null;
  taxId: string;
  address: string | null;
  phone: string | null;
  prefix: string;
}

export interface User {
  id: number;
  username: string;
  role: Role;
  companyId: number | null;
  company: UserCompany | null;
  posId: number | null;
  posName: string | null;
  impersonatedBy: string | null;
}

export interface AuthResponse {
  token: string;
  user: User;
}

/** A company as listed on the super-admin screen. */
export interface Company {
  id: number;
  name: string;
  taxId: string;
  logoUrl: string | null;
  businessName: string | null;
  address: string | null;
  phone: string | null;
  prefix: string;
  createdAt: string;
  schemaVersion?: number | null;
}

export interface RolePermissions {
  supervisor: string[];
  cajero: string[];
}

export type ExpirationPolicy = 'none' | 'fifo' | 'inactivity' | 'calendar';

export interface Settings {
  pointsPerPeso: number;
  redemptionRate: number;
  campaignMultiplier: number;
  expirationPolicy: ExpirationPolicy;
  pointsExpirationDays: number;
  inactivityDays: number;
  enableFirstPurchaseBonus: boolean;
  firstPurchaseBonusMultiplier: number;
  enableBirthdayBonus: boolean;
  birthdayBonusMultiplier: number;
  rolePermissions: RolePermissions;
  timeZone?: string;
}

export interface PointOfSale {
  id: number;
  name: string;
}

export interface Category {
  id: number;
  name: string;
  icon: string;
}

/** A customer (SPEC.md section 3); `birthdate` is YYYY-MM-DD. */
export interface Customer {
  id: number;
  document: string;
  name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
  birthdate: string | null;
  points: number;
  is_active: boolean;
}

export interface Product {
  id: number;
  code: string;
  name: string;
  description: string | null;
  imageUrl: string | null;
  price: number;
  pointsValue: number;
  is_active: boolean;
  categoryId: number | null;
  categoryName: string | null;
}

export type TransactionType = 'accreditation' | 'redemption' | 'expiration' | 'cancellation';

/** A ledger row; `points` is negative for redemptions and expirations. */
export interface Transaction {
  id: number;
  date: string;
  type: TransactionType;
  points: number;
  customerId: number;
  customerName: string;
  customerDocument: string;
  /** 'system' (or absent) for expirations. */
  cashierUsername: string | null;
  posId: number | null;
  posName: string | null;
  description: string | null;
  invoiceAmount: number | null;
  redeemedValue: number | null;
  invoiceReference: string | null;
  productId: number | null;
  /** The redeemed product's name. */
  productName?: string | null;
  is_voided: boolean;
  voided_by: string | null;
  originalTransactionId: number | null;
  /** The customer's balance before and after this posting (null on rows older than the record). */
  balanceBefore?: number | null;
  balanceAfter?: number | null;
}

/** A page of a paged, filtered list. */
export interface Paged<T> {
  items: T[];
  total: number;
  /** The report's answer only: false when `total` is a lower bound (counted 10,000 past the page). */
  totalExact?: boolean;
  page: number;
  pageSize: number;
}
