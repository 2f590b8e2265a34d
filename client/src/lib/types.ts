// The client's names for the JSON the API answers with. The shapes are the server's own, generated
// from its OpenAPI document into src/api/schema.d.ts (client/scripts/api-types.sh): the server
// is the contract, so a change there shows up here as a compile error, not as a silent mismatch.

import type { components } from '../api/schema';

type Schemas = components['schemas'];

/** Every role a user may have; the API sends it as a plain string. */
export type Role = 'super_admin' | 'admin' | 'supervisor' | 'cajero';

/** The company a user belongs to, as carried in the login answer. */
export type UserCompany = Schemas['CompanyInfo'];

/** The logged-in user. */
export type User = Schemas['UserView'];

export type AuthResponse = Schemas['SessionResponse'];

/** A company as listed on the super-admin screen. */
export type Company = Schemas['Company'];

/** One page of the operator's figures per company, with the platform's totals. */
export type CompanyStatsPage = Schemas['CompanyStatsPage'];

/** What computing the figures again did. */
export type StatsRefresh = Schemas['StatsRefresh'];

export type RolePermissions = Schemas['RolePermissions'];

/** The values of `Settings['expirationPolicy']` (the API sends a plain string); docs/points.md. */
export type ExpirationPolicy = 'none' | 'fifo' | 'inactivity' | 'calendar';
/** What a return does when the customer already spent the points it reverts (docs/points.md, "Returns"). */
export type ReturnOfSpentPoints = 'refuse' | 'negative';

export type Settings = Schemas['Settings'];

/** A webhook endpoint, its creation's answer (with the secret, shown once) and its deliveries (docs/webhooks.md). */
export type Webhook = Schemas['Webhook'];
export type WebhookInput = Schemas['WebhookInput'];
export type CreatedWebhook = Schemas['CreatedWebhook'];
export type WebhookDelivery = Schemas['WebhookDelivery'];

export type PointOfSale = Schemas['PointOfSale'];

export type Category = Schemas['Category'];

/** A customer; `birthdate` is YYYY-MM-DD. */
export type Customer = Schemas['Customer'];

export type Product = Schemas['Product'];

/** Everything held about one customer (GET /customers/{id}/data; docs/privacy.md, "Access"). */
export type CustomerData = Schemas['CustomerData'];

/** What a suppression did (POST /customers/{id}/suppress; docs/privacy.md, "Suppression"). */
export type SuppressResponse = Schemas['SuppressResponse'];

/** A data holder's request under Ley 1581 (docs/privacy.md); `dueOn` and `filedOn` are YYYY-MM-DD. */
export type DataRequest = Schemas['DataRequest'];

export type DataRequestInput = Schemas['DataRequestInput'];

export type DataRequestUpdate = Schemas['DataRequestUpdate'];

export type DataRequestPage = Schemas['Paged_DataRequest'];

export type TransactionType = Schemas['Kind'];

/** A ledger row; `points` is negative for redemptions and expirations. */
export type Transaction = Schemas['Transaction'];

/**
 * A page of a paged, filtered list, by the type of its items. The report's page also says
 * whether `total` is exact (false when it is a lower bound, counted 10,000 past the page).
 */
export type Paged<T extends Customer | Transaction> = T extends Transaction
  ? Schemas['TransactionPage']
  : Schemas['Paged_Customer'];

/** One entry of the company's audit trail; `detail` holds what its action recorded (docs/roles.md). */
export type AuditEntry = Omit<Schemas['AuditEntry'], 'detail'> & { detail: Record<string, unknown> };

/** A page of the audit trail. */
export type AuditPage = Omit<Schemas['AuditPage'], 'items'> & { items: AuditEntry[] };
/** An alert for supervisors and admins (docs/points.md, "Alerts"). */
export type Alert = Schemas['Alert'];

export type AlertKind = Schemas['AlertKind'];

export type AlertStatus = Schemas['AlertStatus'];

export type AlertPage = Schemas['AlertPage'];

export type AlertCount = Schemas['AlertCount'];

/** What an import of customers read and wrote (docs/import.md). */
export type ImportAnswer = Schemas['ImportAnswer'];

/** A point of sale's API key as listed (never the key itself; docs/integration.md). */
export type ApiKey = Schemas['ApiKey'];

/** A key just made: the only answer that holds the key. */
export type NewApiKey = Schemas['NewApiKey'];
