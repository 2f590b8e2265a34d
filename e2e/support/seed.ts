// Test data built through the API for the operation specs.

import type { LoyaltyApi, Customer, PointOfSale, Product, Category } from './api';
import { uniqueTag, type TestCompany } from './fixtures';
import type { Login } from './run';

/** A customer document no other test uses (digits only, as the lookup stores them). */
export function uniqueDocument(): string {
  return `${Date.now() % 1e9}${Math.floor(Math.random() * 1e4)
    .toString()
    .padStart(4, '0')}`.replace(/^0+/, '7');
}

/**
 * A new customer of the company behind `api` (an admin's client), optionally with points earned
 * through `earnedBy` (a cashier's or supervisor's client: they work at a point of sale).
 */
export async function newCustomer(
  api: LoyaltyApi,
  options: { name?: string; points?: number; earnedBy?: LoyaltyApi; pointsPerPeso?: number } = {},
): Promise<Customer> {
  const customer = await api.createCustomer({ name: options.name ?? `Cliente ${uniqueTag()}`, document: uniqueDocument() });
  if (!options.points) return customer;
  // Points = floor(invoice x pointsPerPeso): the invoice that earns exactly `points`.
  const rate = options.pointsPerPeso ?? 0.01;
  const { updatedCustomer } = await (options.earnedBy ?? api).accredit(customer.id, Math.round(options.points / rate), `SEED-${uniqueTag()}`);
  return updatedCustomer;
}

/** A small shop: two points of sale, a supervisor and two cashiers, a catalog, 1 point per $100. */
export interface Shop {
  company: TestCompany;
  pos: [PointOfSale, PointOfSale];
  supervisor: Login;
  cajero: Login;
  cajero2: Login;
  categories: Category[];
  products: Product[];
}

export async function seedShop(company: TestCompany): Promise<Shop> {
  const { api, prefix } = company;
  const north = await api.createPos('Caja Norte');
  const south = await api.createPos('Caja Sur');
  const supervisor = { username: `sofia@${prefix}`, password: 'clave-sofia-12' };
  const cajero = { username: `carlos@${prefix}`, password: 'clave-carlos-12' };
  const cajero2 = { username: `camila@${prefix}`, password: 'clave-camila-12' };
  await api.createUser({ username: 'sofia', password: supervisor.password, role: 'supervisor', posId: north.id });
  await api.createUser({ username: 'carlos', password: cajero.password, role: 'cajero', posId: north.id });
  await api.createUser({ username: 'camila', password: cajero2.password, role: 'cajero', posId: south.id });
  await api.saveSettings({ pointsPerPeso: 0.01, redemptionRate: 10 });
  const drinks = await api.createCategory('Bebidas', 'Cake');
  const home = await api.createCategory('Hogar', 'HomeModern');
  const products = [
    await api.createProduct({ code: 'CAF-01', name: 'Café de Origen', description: 'Bolsa de 500 g', price: 15000, pointsValue: 500, categoryId: drinks.id }),
    await api.createProduct({ code: 'TER-01', name: 'Termo de Acero', description: 'Termo de 1 litro', price: 45000, pointsValue: 1500, categoryId: home.id }),
  ];
  return { company, pos: [north, south], supervisor, cajero, cajero2, categories: [drinks, home], products };
}

/** The clock of the seeded companies and of the browser in this suite: Bogotá, to the minute. */
const bogotaClock = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Bogota', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** A server date as the server names it in messages: the company's local 'YYYY-MM-DD HH:MM'. */
export function bogotaMinute(date: string | Date): string {
  const parts = bogotaClock.formatToParts(new Date(date));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}

/** Today's date in Bogotá (the browser's time zone in this suite), YYYY-MM-DD. */
export function todayInBogota(offsetDays = 0): string {
  return bogotaMinute(new Date(Date.now() + offsetDays * 86_400_000)).slice(0, 'YYYY-MM-DD'.length);
}

/** A whole number as es-CO shows it: 1234567 is '1.234.567'. */
export function esNumber(value: number): string {
  return new Intl.NumberFormat('es-CO', { maximumFractionDigits: 0 }).format(value);
}
