// Customers, products and transactions for the cashier screens' tests.

import type { Customer, Product, Transaction } from '../lib/types';

export function makeCustomer(overrides: Partial<Customer> = {}): Customer {
  return {
    id: 1,
    document: '1020304050',
    name: 'Ana María Gómez',
    email: 'ana@example.com',
    phone: null,
    address: null,
    birthdate: null,
    points: 5000,
    is_active: true,
    claimInProgress: false,
    ...overrides,
  };
}

let nextProductId = 100;

export function makeProduct(overrides: Partial<Product> = {}): Product {
  nextProductId += 1;
  return {
    id: nextProductId,
    code: `P-${nextProductId}`,
    name: `Producto ${nextProductId}`,
    description: null,
    imageUrl: null,
    price: 10000,
    pointsValue: 1000,
    is_active: true,
    categoryId: null,
    categoryName: null,
    ...overrides,
  };
}

export function makeTransaction(overrides: Partial<Transaction> = {}): Transaction {
  return {
    id: 1,
    date: '2026-03-09T19:05:00Z',
    type: 'accreditation',
    points: 500,
    customerId: 1,
    customerName: 'Ana María Gómez',
    customerDocument: '1020304050',
    cashierUsername: 'caja1',
    posId: 3,
    posName: 'Caja principal',
    description: null,
    invoiceAmount: 50000,
    redeemedValue: null,
    invoiceReference: null,
    productId: null,
    is_voided: false,
    voided_by: null,
    originalTransactionId: null,
    ...overrides,
  };
}
