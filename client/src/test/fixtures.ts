import type { RootState } from '../app/store';
import type { Company, Role, Settings, User, UserCompany } from '../lib/types';

export const demoCompany: UserCompany = {
  id: 7,
  name: 'Tienda Demo',
  logoUrl: null,
  businessName: 'Tienda Demo S.A.S.',
  taxId: '900123456-7',
  address: 'Calle 1 # 2-3',
  phone: '6011234567',
  prefix: 'demo',
};

export function makeUser(role: Role, overrides: Partial<User> = {}): User {
  const isSuper = role === 'super_admin';
  return {
    id: isSuper ? 1 : 10,
    username: isSuper ? 'root' : role === 'cajero' ? 'caja1' : role,
    role,
    companyId: isSuper ? null : demoCompany.id,
    company: isSuper ? null : demoCompany,
    posId: role === 'cajero' || role === 'supervisor' ? 3 : null,
    posName: role === 'cajero' || role === 'supervisor' ? 'Caja principal' : null,
    impersonatedBy: null,
    ...overrides,
  };
}

export function makeSettings(rolePermissions: Settings['rolePermissions'] = { supervisor: [], cajero: [] }): Settings {
  return {
    pointsPerPeso: 0.01,
    redemptionRate: 100,
    campaignMultiplier: 1,
    expirationPolicy: 'none',
    pointsExpirationDays: 365,
    inactivityDays: 180,
    enableFirstPurchaseBonus: false,
    firstPurchaseBonusMultiplier: 1,
    enableBirthdayBonus: false,
    birthdayBonusMultiplier: 1,
    rolePermissions,
    timeZone: 'America/Bogota',
    returnOfSpentPoints: 'refuse',
    maxAccreditationsPerCustomerPerDay: 0,
    maxPointsPerCustomerPerDay: 0,
    alertOperationsPerDay: 5,
    retentionYears: 0,
  };
}

/** Preloaded state for a logged-in user (optionally a super admin impersonating a company admin). */
export function loggedInState(
  user: User,
  options: { original?: { token: string; user: User }; locale?: 'es' | 'en'; theme?: 'light' | 'dark' } = {},
): Partial<RootState> {
  return {
    session: {
      token: `token-${user.username}`,
      user,
      originalToken: options.original?.token ?? null,
      originalUser: options.original?.user ?? null,
    },
    preferences: { locale: options.locale ?? 'es', theme: options.theme ?? 'light' },
  };
}

export function makeCompanies(count: number): Company[] {
  return Array.from({ length: count }, (_, index) => {
    const n = index + 1;
    return {
      id: n,
      name: `Empresa ${String(n).padStart(2, '0')}`,
      taxId: `900${String(n).padStart(6, '0')}`,
      logoUrl: null,
      businessName: `Empresa ${n} S.A.S.`,
      address: null,
      phone: null,
      prefix: `empresa${n}`,
      createdAt: '2026-01-01T00:00:00Z',
      schemaVersion: 1,
    };
  });
}
