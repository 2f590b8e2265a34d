import { describe, expect, it } from 'vitest';
import { countQueue, replayQueue, retryEntry, sendFailure, type QueueStorage, type QueuedAccreditation, type SendOutcome } from './offlineQueue';

function memoryStorage(): QueueStorage & { map: Map<string, QueuedAccreditation> } {
  const map = new Map<string, QueuedAccreditation>();
  return {
    map,
    async entries(company) {
      return [...map.values()].filter((entry) => entry.company === company).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },
    async put(entry) {
      map.set(entry.idempotencyKey, entry);
    },
    async remove(key) {
      map.delete(key);
    },
  };
}

function entry(n: number, company = 'acme'): QueuedAccreditation {
  return {
    idempotencyKey: `key-${n}`,
    company,
    customerId: 1,
    customerName: 'Ana',
    customerDocument: '123',
    invoiceAmount: 1000 * n,
    invoiceReference: `F-${n}`,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    status: 'pending',
    attempts: 0,
  };
}

describe('the offline accreditation queue', () => {
  it('sends every pending entry once, oldest first, with its own key, and empties the queue', async () => {
    const storage = memoryStorage();
    for (const n of [3, 1, 2]) await storage.put(entry(n));
    const keys: string[] = [];
    const result = await replayQueue(storage, 'acme', async (e) => {
      keys.push(e.idempotencyKey);
      return { kind: 'sent' };
    });
    expect(keys).toEqual(['key-1', 'key-2', 'key-3']);
    expect(result).toEqual({ sent: 3, interrupted: false });
    expect(storage.map.size).toBe(0);
  });

  it('stops at a failure with no answer and sends that entry again with the same key later', async () => {
    const storage = memoryStorage();
    for (const n of [1, 2, 3]) await storage.put(entry(n));
    const server = new Map<string, number>();
    let calls = 0;
    const send = async (e: QueuedAccreditation): Promise<SendOutcome> => {
      calls += 1;
      // The server posts it (once per key), but every third answer is lost on the way back.
      if (!server.has(e.idempotencyKey)) server.set(e.idempotencyKey, e.invoiceAmount);
      return calls % 3 === 0 ? { kind: 'retry' } : { kind: 'sent' };
    };
    const first = await replayQueue(storage, 'acme', send);
    expect(first).toEqual({ sent: 2, interrupted: true });
    expect([...storage.map.keys()]).toEqual(['key-3']);
    expect(storage.map.get('key-3')?.attempts).toBe(1);
    const second = await replayQueue(storage, 'acme', send);
    expect(second).toEqual({ sent: 1, interrupted: false });
    expect(server.size).toBe(3);
    expect(storage.map.size).toBe(0);
  });

  it('keeps an entry the server refused as rejected, skips it on later rounds, and retries it when asked', async () => {
    const storage = memoryStorage();
    await storage.put(entry(1));
    await storage.put(entry(2));
    await replayQueue(storage, 'acme', async (e) =>
      e.idempotencyKey === 'key-1' ? { kind: 'rejected', message: 'Factura ya acreditada' } : { kind: 'sent' },
    );
    expect(storage.map.get('key-1')).toMatchObject({ status: 'rejected', error: 'Factura ya acreditada' });
    expect(await countQueue(storage, 'acme')).toEqual({ pending: 1, rejected: 1 });

    let sends = 0;
    await replayQueue(storage, 'acme', async () => {
      sends += 1;
      return { kind: 'sent' };
    });
    expect(sends).toBe(0);

    await retryEntry(storage, storage.map.get('key-1')!);
    await replayQueue(storage, 'acme', async () => ({ kind: 'sent' }));
    expect(storage.map.size).toBe(0);
  });

  it("sends only the signed-in company's entries", async () => {
    const storage = memoryStorage();
    await storage.put(entry(1, 'acme'));
    await storage.put(entry(2, 'other'));
    const result = await replayQueue(storage, 'acme', async () => ({ kind: 'sent' }));
    expect(result.sent).toBe(1);
    expect([...storage.map.keys()]).toEqual(['key-2']);
  });

  it('reads no answer, server errors and an ended session as "try again", other refusals as final', () => {
    expect(sendFailure({ status: 'FETCH_ERROR' }, 'm')).toEqual({ kind: 'retry' });
    expect(sendFailure({ status: 503 }, 'm')).toEqual({ kind: 'retry' });
    expect(sendFailure({ status: 401 }, 'm')).toEqual({ kind: 'retry' });
    expect(sendFailure({ status: 409 }, 'dup')).toEqual({ kind: 'rejected', message: 'dup' });
    expect(sendFailure({ status: 404 }, 'gone')).toEqual({ kind: 'rejected', message: 'gone' });
  });
});
