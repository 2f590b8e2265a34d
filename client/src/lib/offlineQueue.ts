// The offline till (docs/operations.md, "Offline till"): accreditations made with no connection
// wait in IndexedDB, each with the Idempotency-Key it was given when the cashier pressed the
// button, and are sent when the connection is back. The key is stored with the entry and sent
// on every attempt, across reloads, so the server posts each exactly once (docs/points.md,
// "Idempotency-Key"). Customers recently served at this device are kept too (a bounded list),
// so the lookup still finds them offline.

import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Customer } from './types';
import { mayHaveSucceeded } from './idempotency';

/** An accreditation made offline, as it waits on the device. */
export interface QueuedAccreditation {
  /** The Idempotency-Key: the entry's identity here and on the server. */
  idempotencyKey: string;
  /** The company's prefix: only its own users' sessions send it. */
  company: string;
  customerId: number;
  customerName: string;
  customerDocument: string;
  invoiceAmount: number;
  invoiceReference: string;
  /** When the cashier made it (ISO 8601). */
  createdAt: string;
  /** `pending` until sent; `rejected` once the server refused it (a supervisor decides). */
  status: 'pending' | 'rejected';
  /** The server's message for a refusal, in the language of the screen that sent it. */
  error?: string;
  attempts: number;
}

/** Where the queue is kept: IndexedDB in the browser, memory in the unit tests. */
export interface QueueStorage {
  /** The company's entries, oldest first. */
  entries(company: string): Promise<QueuedAccreditation[]>;
  put(entry: QueuedAccreditation): Promise<void>;
  remove(idempotencyKey: string): Promise<void>;
}

/** What one attempt to send an entry came to. */
export type SendOutcome = { kind: 'sent' } | { kind: 'retry' } | { kind: 'rejected'; message: string };

/** How a failed send is read: no answer, a server error or a lost session keep the entry for later; any other refusal is final. */
export function sendFailure(error: unknown, message: string): SendOutcome {
  const status = error && typeof error === 'object' && 'status' in error ? (error as { status: unknown }).status : undefined;
  if (status === 401 || mayHaveSucceeded(error)) return { kind: 'retry' };
  return { kind: 'rejected', message };
}

export interface ReplayResult {
  sent: number;
  /** An attempt failed for want of a connection: the round stopped there. */
  interrupted: boolean;
}

/**
 * Sends the company's pending entries, oldest first, each with its own key. A sent entry leaves
 * the queue; one refused for good is kept as `rejected`; at the first attempt with no answer the
 * round stops, to go on later from that same entry.
 */
export async function replayQueue(
  storage: QueueStorage,
  company: string,
  send: (entry: QueuedAccreditation) => Promise<SendOutcome>,
): Promise<ReplayResult> {
  let sent = 0;
  for (const entry of await storage.entries(company)) {
    if (entry.status !== 'pending') continue;
    const outcome = await send(entry);
    if (outcome.kind === 'sent') {
      await storage.remove(entry.idempotencyKey);
      sent += 1;
    } else if (outcome.kind === 'rejected') {
      await storage.put({ ...entry, status: 'rejected', error: outcome.message, attempts: entry.attempts + 1 });
    } else {
      await storage.put({ ...entry, attempts: entry.attempts + 1 });
      return { sent, interrupted: true };
    }
  }
  return { sent, interrupted: false };
}

/** How many of the company's entries wait, and how many of those were refused. */
export async function countQueue(storage: QueueStorage, company: string): Promise<{ pending: number; rejected: number }> {
  const entries = await storage.entries(company);
  return { pending: entries.length, rejected: entries.filter((entry) => entry.status === 'rejected').length };
}

/** A refused entry sent again (a supervisor's "retry"): back to pending, with the same key. */
export async function retryEntry(storage: QueueStorage, entry: QueuedAccreditation): Promise<void> {
  await storage.put({ ...entry, status: 'pending', error: undefined });
}

/** Customers kept for the offline lookup, at most this many per device (the latest served). */
export const CUSTOMER_CACHE_LIMIT = 200;

interface CachedCustomer {
  /** `company:document`. */
  key: string;
  customer: Customer;
  servedAt: number;
}

interface OfflineDb extends DBSchema {
  accreditations: { key: string; value: QueuedAccreditation; indexes: { company: string } };
  customers: { key: string; value: CachedCustomer; indexes: { servedAt: number } };
}

const DB_NAME = 'loyalty-offline';

let database: Promise<IDBPDatabase<OfflineDb>> | null = null;

function db(): Promise<IDBPDatabase<OfflineDb>> | null {
  if (typeof indexedDB === 'undefined') return null;
  database ??= openDB<OfflineDb>(DB_NAME, 1, {
    upgrade(upgrade) {
      upgrade.createObjectStore('accreditations', { keyPath: 'idempotencyKey' }).createIndex('company', 'company');
      upgrade.createObjectStore('customers', { keyPath: 'key' }).createIndex('servedAt', 'servedAt');
    },
  });
  return database;
}

const listeners = new Set<() => void>();

/** Calls `listener` whenever the queue changes (in this tab); returns the unsubscribe. */
export function onQueueChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed() {
  for (const listener of listeners) listener();
}

/** The queue in this browser's IndexedDB (empty, and keeping nothing, where there is none). */
export const deviceQueue: QueueStorage = {
  async entries(company) {
    const open = db();
    if (!open) return [];
    const all = await (await open).getAllFromIndex('accreditations', 'company', company);
    return all.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  },
  async put(entry) {
    const open = db();
    if (!open) throw new Error('IndexedDB unavailable');
    await (await open).put('accreditations', entry);
    changed();
  },
  async remove(idempotencyKey) {
    const open = db();
    if (!open) return;
    await (await open).delete('accreditations', idempotencyKey);
    changed();
  },
};

/** Keeps a customer just served, for the offline lookup; the oldest go beyond the limit. */
export async function rememberCustomer(company: string, customer: Customer): Promise<void> {
  const open = db();
  if (!open) return;
  try {
    const handle = await open;
    await handle.put('customers', { key: `${company}:${customer.document}`, customer, servedAt: Date.now() });
    const excess = (await handle.count('customers')) - CUSTOMER_CACHE_LIMIT;
    if (excess <= 0) return;
    const tx = handle.transaction('customers', 'readwrite');
    let cursor = await tx.store.index('servedAt').openCursor();
    for (let left = excess; cursor && left > 0; left -= 1) {
      await cursor.delete();
      cursor = await cursor.continue();
    }
    await tx.done;
  } catch {
    // The cache only helps offline; a browser that refuses it loses nothing else.
  }
}

/** A customer of the company served recently at this device, by exact document. */
export async function findRememberedCustomer(company: string, document: string): Promise<Customer | null> {
  const open = db();
  if (!open) return null;
  try {
    return (await (await open).get('customers', `${company}:${document}`))?.customer ?? null;
  } catch {
    return null;
  }
}
