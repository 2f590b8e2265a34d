// Endpoints the cashier screens share (dashboard quick panels, accredit, redeem): the customer
// lookup by exact document, adding a customer (at the till or in the settings), the products a
// customer can redeem, and the two postings.
// Accredit and redeem carry an Idempotency-Key header (docs/points.md, "Idempotency-Key").

import type { Customer, Product, Transaction } from '../../lib/types';
import { api } from '../../app/api';
import type { ConsentInput } from '../privacy';
import { entityEndpoints, listQuery } from '../../app/entityEndpoints';

/** The fields a new or edited customer sends (empty optional fields go as null). */
export interface CustomerInput {
  name: string;
  document: string;
  email: string | null;
  phone: string | null;
  address: string | null;
  birthdate: string | null;
  /** Required when adding: the customer's authorization to the privacy notice in force. */
  consent?: ConsentInput;
}

export interface AccreditRequest {
  customerId: number;
  invoiceAmount: number;
  invoiceReference: string;
  idempotencyKey: string;
}

/** An accreditation beyond a velocity limit, with the approving supervisor's credentials. */
export interface ApprovedAccreditRequest extends AccreditRequest {
  supervisorUsername: string;
  supervisorPassword: string;
}

export interface RedeemRequest {
  customerId: number;
  pointsToRedeem: number;
  description: string;
  invoiceReference: string;
  productId: number | null;
  idempotencyKey: string;
}

/** What an invoice would earn a customer now (GET /customers/{id}/accredit-preview). */
export interface AccreditPreview {
  points: number;
  /** The multiplier of each bonus that applies to this purchase, else null. */
  firstPurchaseBonus: number | null;
  birthdayBonus: number | null;
  campaignMultiplier: number;
}

export interface PostingResult {
  updatedCustomer: Customer;
  newTransaction: Transaction;
}

function toNumberOrNull(value: unknown): number | null {
  if (value == null || value === '') return null;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : null;
}

/** A transaction as the API sends it, with its amounts (invoiceAmount, redeemedValue) parsed to numbers. */
export function normalizeTransaction(raw: Transaction): Transaction {
  return {
    ...raw,
    points: Number(raw.points),
    invoiceAmount: toNumberOrNull(raw.invoiceAmount),
    redeemedValue: toNumberOrNull(raw.redeemedValue),
    is_voided: Boolean(raw.is_voided),
  };
}

function normalizePosting(result: PostingResult): PostingResult {
  return { updatedCustomer: result.updatedCustomer, newTransaction: normalizeTransaction(result.newTransaction) };
}

/** What a posting changes: the customer, the transaction lists and the dashboard figures. */
function postingTags(customerId: number) {
  return [
    { type: 'Customer' as const, id: customerId },
    { type: 'Transaction' as const, id: 'LIST' },
    { type: 'Stats' as const, id: 'DASHBOARD' },
  ];
}

export const pointsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The active customer with exactly this document; 404 {message:'customer not found'}. Every
     * search asks the server (the screens keep the customer found and update it from postings).
     */
    getCustomerByDocument: build.query<Customer, string>({
      query: (document) => `/customers/by-document/${encodeURIComponent(document)}`,
      keepUnusedDataFor: 0,
    }),
    /** Adds a customer (admins, and roles granted /settings/customers). */
    createCustomer: entityEndpoints(build, { path: '/customers', tag: 'Customer' }).create<Customer, CustomerInput>([
      { type: 'Stats', id: 'DASHBOARD' },
    ]),
    /** Active products (the only ones that can be redeemed), for every role. */
    getRedeemableProducts: listQuery<Product>(build, '/products', 'Product'),
    /** The points an invoice would earn, by the server's own rules; it posts nothing. */
    getAccreditPreview: build.query<AccreditPreview, { customerId: number; invoiceAmount: number }>({
      query: ({ customerId, invoiceAmount }) => ({
        url: `/customers/${customerId}/accredit-preview`,
        params: { invoiceAmount },
      }),
      keepUnusedDataFor: 0,
      providesTags: (_result, _error, { customerId }) => [{ type: 'Customer', id: customerId }, { type: 'Settings', id: 'CURRENT' }],
    }),
    accreditPoints: build.mutation<PostingResult, AccreditRequest>({
      query: ({ customerId, idempotencyKey, invoiceAmount, invoiceReference }) => ({
        url: `/customers/${customerId}/accredit`,
        method: 'POST',
        headers: { 'Idempotency-Key': idempotencyKey },
        body: { invoiceAmount, invoiceReference },
      }),
      transformResponse: normalizePosting,
      invalidatesTags: (_result, error, { customerId }) => (error ? [] : postingTags(customerId)),
    }),
    // Its own endpoint, so that a 401 for a wrong supervisor password does not end the session.
    accreditApproved: build.mutation<PostingResult, ApprovedAccreditRequest>({
      query: ({ customerId, idempotencyKey, invoiceAmount, invoiceReference, supervisorUsername, supervisorPassword }) => ({
        url: `/customers/${customerId}/accredit`,
        method: 'POST',
        headers: { 'Idempotency-Key': idempotencyKey },
        body: { invoiceAmount, invoiceReference, supervisorUsername, supervisorPassword },
      }),
      transformResponse: normalizePosting,
      invalidatesTags: (_result, error, { customerId }) => (error ? [] : postingTags(customerId)),
    }),
    redeemPoints: build.mutation<PostingResult, RedeemRequest>({
      query: ({ customerId, idempotencyKey, pointsToRedeem, description, invoiceReference, productId }) => ({
        url: `/customers/${customerId}/redeem`,
        method: 'POST',
        headers: { 'Idempotency-Key': idempotencyKey },
        body: { pointsToRedeem, description, invoiceReference, productId },
      }),
      transformResponse: normalizePosting,
      invalidatesTags: (_result, error, { customerId }) => (error ? [] : postingTags(customerId)),
    }),
  }),
});

export const {
  useLazyGetCustomerByDocumentQuery,
  useCreateCustomerMutation,
  useGetAccreditPreviewQuery,
  useGetRedeemableProductsQuery,
  useAccreditPointsMutation,
  useAccreditApprovedMutation,
  useRedeemPointsMutation,
} = pointsApi;
