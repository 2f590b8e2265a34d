// Sends the accreditations kept on this device while offline (docs/operations.md, "Offline
// till"), and keeps the shell's counts of them current. Mounted once, for the whole app.

import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage } from '../../app/api';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { queueCounted, selectOnline } from '../../app/offline';
import { selectToken, selectUser } from '../../app/session';
import {
  countQueue,
  deviceQueue,
  onQueueChanged,
  replayQueue,
  sendFailure,
  type QueuedAccreditation,
  type SendOutcome,
} from '../../lib/offlineQueue';
import { useAccreditPointsMutation } from './pointsApi';

/** Between rounds while nothing failed: a queued entry waits at most this long once online. */
const IDLE_MS = 3000;
/** After a failed attempt: 1 s, doubling, at most this long. */
const MAX_BACKOFF_MS = 30000;

/** Runs `work` alone among this device's tabs where the browser can say so (Web Locks). */
async function exclusively(work: () => Promise<void>): Promise<void> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return work();
  await locks.request('loyalty-offline-replay', { ifAvailable: true }, async (lock) => {
    if (lock) await work();
  });
}

export function OfflineSync() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const online = useAppSelector(selectOnline);
  const token = useAppSelector(selectToken);
  const company = useAppSelector(selectUser)?.company?.prefix ?? null;
  const [accredit] = useAccreditPointsMutation();

  useEffect(() => {
    if (!company) {
      dispatch(queueCounted({ pending: 0, rejected: 0 }));
      return;
    }
    let live = true;
    const recount = () => {
      void countQueue(deviceQueue, company)
        .then((counts) => {
          if (live) dispatch(queueCounted(counts));
        })
        .catch(() => undefined);
    };
    recount();
    const unsubscribe = onQueueChanged(recount);
    return () => {
      live = false;
      unsubscribe();
    };
  }, [company, dispatch]);

  useEffect(() => {
    if (!company || !token || !online) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;

    async function send(entry: QueuedAccreditation): Promise<SendOutcome> {
      try {
        await accredit({
          customerId: entry.customerId,
          invoiceAmount: entry.invoiceAmount,
          invoiceReference: entry.invoiceReference,
          idempotencyKey: entry.idempotencyKey,
        }).unwrap();
        return { kind: 'sent' };
      } catch (failure) {
        return sendFailure(failure, apiErrorMessage(failure) ?? t('common.errorGeneric'));
      }
    }

    async function round() {
      if (stopped || !company) return;
      let interrupted = false;
      let sent = 0;
      try {
        await exclusively(async () => {
          ({ interrupted, sent } = await replayQueue(deviceQueue, company, send));
        });
      } catch {
        interrupted = true;
      }
      if (stopped) return;
      // The back-off grows only while nothing gets through.
      failures = !interrupted ? 0 : sent > 0 ? 1 : failures + 1;
      timer = setTimeout(() => void round(), interrupted ? Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (failures - 1)) : IDLE_MS);
    }

    void round();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [company, token, online, accredit, t]);

  return null;
}
